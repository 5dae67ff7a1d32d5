/* ELF loading: a valid RV32 executable runs, from the boot address 0x100080
 * (as the RTL) or, with entry=elf, from its entry point; every kind of bad
 * file gets its own clear error and loads nothing. Images are built by hand
 * here. */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ibex/ibex_asm.h"
#include "targets/ibex_config.h"

/* ELF header + one PT_LOAD program header + code that prints 'k' and halts
 * at 0x100200, the entry point (add_boot_segment: a second segment with code
 * that prints 'b' and halts at the boot address). */
typedef struct image {
    Elf32_Ehdr eh;
    Elf32_Phdr ph[2];
    uint32_t code[8];
    uint32_t boot[8];
} image;

static void make_image(image *im)
{
    const uint32_t prog[] = {
        LUI(30, 0x20), ADDI(29, 0, 'k'), SW(29, 30, 0), ADDI(29, 0, 1), SW(29, 30, 8), JAL(0, 0),
    };
    memset(im, 0, sizeof *im);
    memcpy(im->eh.e_ident, ELFMAG, SELFMAG);
    im->eh.e_ident[EI_CLASS] = ELFCLASS32;
    im->eh.e_ident[EI_DATA] = ELFDATA2LSB;
    im->eh.e_ident[EI_VERSION] = EV_CURRENT;
    im->eh.e_type = ET_EXEC;
    im->eh.e_machine = 243;   /* EM_RISCV */
    im->eh.e_version = EV_CURRENT;
    im->eh.e_entry = 0x00100200u;
    im->eh.e_phoff = offsetof(image, ph);
    im->eh.e_ehsize = sizeof(Elf32_Ehdr);
    im->eh.e_phentsize = sizeof(Elf32_Phdr);
    im->eh.e_phnum = 1;
    im->ph[0].p_type = PT_LOAD;
    im->ph[0].p_offset = offsetof(image, code);
    im->ph[0].p_vaddr = im->ph[0].p_paddr = 0x00100200u;
    im->ph[0].p_filesz = sizeof prog;
    im->ph[0].p_memsz = sizeof prog + 64;   /* with a bss tail */
    im->ph[0].p_flags = PF_R | PF_X;
    memcpy(im->code, prog, sizeof prog);
}

static void add_boot_segment(image *im)
{
    const uint32_t prog[] = {
        LUI(30, 0x20), ADDI(29, 0, 'b'), SW(29, 30, 0), ADDI(29, 0, 1), SW(29, 30, 8), JAL(0, 0),
    };
    memcpy(im->boot, prog, sizeof prog);
    im->eh.e_phnum = 2;
    im->ph[1] = im->ph[0];
    im->ph[1].p_offset = offsetof(image, boot);
    im->ph[1].p_vaddr = im->ph[1].p_paddr = IBEX_SS_RESET_PC;
    im->ph[1].p_filesz = im->ph[1].p_memsz = sizeof prog;
}

static ibex_core *core_entry(const char *entry)
{
    ibex_config cfg;
    ibex_core *c;
    char opts[32];
    snprintf(opts, sizeof opts, "entry=%s", entry ? entry : "boot");
    assert_int_equal(smn_ibex_config(opts, &cfg), SOCMON_OK);
    assert_int_equal(smn_ibex_create(&cfg, &c), SOCMON_OK);
    return c;
}

static ibex_core *core(void)
{
    return core_entry("elf");   /* the bad-file checks include the entry point's */
}

/* Loads the image, checks the PC, runs it; returns what it printed. */
static const char *load_and_run(ibex_core *c, const image *im, uint32_t pc)
{
    ibex_stop why;
    assert_int_equal(smn_ibex_load_elf_mem(c, im, sizeof *im), SOCMON_OK);
    assert_int_equal(smn_ibex_pc(c), pc);
    assert_int_equal(smn_ibex_run(c, 10000, &why), SOCMON_OK);
    assert_int_equal(why, IBEX_STOP_HALT);
    return smn_ibex_output(c, NULL);
}

static void test_valid_runs(void **state)
{
    image im;
    ibex_core *c = core_entry("elf");
    (void)state;
    make_image(&im);
    assert_string_equal(load_and_run(c, &im, 0x00100200u), "k");
    smn_ibex_destroy(c);
}

/* Ibex starts at the boot address whatever e_entry says; entry=elf starts at e_entry. */
static void test_entry(void **state)
{
    image im;
    ibex_config cfg;
    (void)state;
    make_image(&im);
    add_boot_segment(&im);
    ibex_core *c = core_entry(NULL);   /* the default */
    assert_string_equal(load_and_run(c, &im, IBEX_SS_RESET_PC), "b");
    smn_ibex_destroy(c);
    c = core_entry("boot");
    assert_string_equal(load_and_run(c, &im, IBEX_SS_RESET_PC), "b");
    smn_ibex_destroy(c);
    c = core_entry("elf");
    assert_string_equal(load_and_run(c, &im, 0x00100200u), "k");
    smn_ibex_destroy(c);

    /* the RTL never looks at e_entry: one outside RAM only matters to entry=elf */
    im.eh.e_entry = 0x00020000u;
    c = core_entry("boot");
    assert_string_equal(load_and_run(c, &im, IBEX_SS_RESET_PC), "b");
    smn_ibex_destroy(c);
    c = core_entry("elf");
    assert_int_equal(smn_ibex_load_elf_mem(c, &im, sizeof im), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "entry point 0x00020000"));
    smn_ibex_destroy(c);

    /* the option: boot by default, with any preset, bad values named */
    assert_int_equal(smn_ibex_config_preset(&cfg, "maxperf"), SOCMON_OK);
    assert_int_equal(cfg.entry, IBEX_ENTRY_BOOT);
    assert_int_equal(smn_ibex_config("entry=elf,config=small", &cfg), SOCMON_OK);
    assert_int_equal(cfg.entry, IBEX_ENTRY_ELF);
    assert_int_not_equal(smn_ibex_config("entry=reset", &cfg), SOCMON_OK);
    assert_non_null(strstr(socmon_errmsg(), "reset"));
}

static void expect_error(const image *im, size_t n, socmon_status want, const char *text)
{
    ibex_core *c = core();
    socmon_status st = smn_ibex_load_elf_mem(c, im, n);
    if (st != want || !strstr(socmon_errmsg(), text))
        print_error("got %d '%s', want %d '...%s...'\n", st, socmon_errmsg(), want, text);
    assert_int_equal(st, want);
    assert_non_null(strstr(socmon_errmsg(), text));
    assert_int_equal(smn_ibex_pc(c), IBEX_SS_RESET_PC);   /* nothing loaded */
    smn_ibex_destroy(c);
}

static void test_bad_files(void **state)
{
    image im;
    (void)state;
    make_image(&im);
    memcpy(im.eh.e_ident, "\177ELG", 4);
    expect_error(&im, sizeof im, SOCMON_EPARSE, "not an ELF file");
    expect_error(&im, 0, SOCMON_EPARSE, "not an ELF file");
    make_image(&im);
    im.eh.e_ident[EI_CLASS] = ELFCLASS64;
    expect_error(&im, sizeof im, SOCMON_EPARSE, "not an RV32");
    make_image(&im);
    im.eh.e_ident[EI_DATA] = ELFDATA2MSB;
    expect_error(&im, sizeof im, SOCMON_EPARSE, "little-endian");
    make_image(&im);
    im.eh.e_machine = 40;   /* ARM */
    expect_error(&im, sizeof im, SOCMON_EPARSE, "not a RISC-V");
    make_image(&im);
    im.eh.e_type = ET_DYN;
    expect_error(&im, sizeof im, SOCMON_EPARSE, "not an executable");
    make_image(&im);
    expect_error(&im, 30, SOCMON_EPARSE, "truncated");
    expect_error(&im, offsetof(image, ph) + 10, SOCMON_EPARSE, "truncated");
    expect_error(&im, offsetof(image, code) + 4, SOCMON_EPARSE, "truncated");
    make_image(&im);
    im.ph[0].p_type = PT_NOTE;
    expect_error(&im, sizeof im, SOCMON_EPARSE, "no loadable segment");
    make_image(&im);
    im.eh.e_phnum = 0;
    expect_error(&im, sizeof im, SOCMON_EPARSE, "no loadable segment");
    make_image(&im);
    im.ph[0].p_paddr = 0x00001000u;
    expect_error(&im, sizeof im, SOCMON_ERANGE, "outside RAM");
    make_image(&im);
    im.ph[0].p_paddr = 0x001FFFF0u;   /* runs past the end of RAM */
    expect_error(&im, sizeof im, SOCMON_ERANGE, "outside RAM");
    make_image(&im);
    im.eh.e_entry = 0x00020000u;
    expect_error(&im, sizeof im, SOCMON_ERANGE, "entry point 0x00020000");
    make_image(&im);
    im.ph[0].p_filesz = im.ph[0].p_memsz + 1;
    expect_error(&im, sizeof im, SOCMON_EPARSE, "larger than memory size");
}

static void test_file_errors(void **state)
{
    ibex_core *c = core();
    FILE *f;
    image im;
    (void)state;
    assert_int_equal(smn_ibex_load_elf_file(c, "/nonexistent/prog.elf"), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "/nonexistent/prog.elf"));
    make_image(&im);
    im.eh.e_ident[EI_CLASS] = ELFCLASS64;
    f = fopen("ibex_elf_test.elf", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(&im, sizeof im, 1, f), 1);
    fclose(f);
    assert_int_equal(smn_ibex_load_elf_file(c, "ibex_elf_test.elf"), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "ibex_elf_test.elf"));
    assert_non_null(strstr(socmon_errmsg(), "RV32"));
    remove("ibex_elf_test.elf");
    smn_ibex_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_runs),
        cmocka_unit_test(test_entry),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_file_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
