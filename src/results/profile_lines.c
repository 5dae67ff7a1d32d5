/* Source lines of a profile (socmon/profile.h): each instruction's file:line from the program's
 * DWARF line table, read with elfutils' libdw (a relative file name joined with the unit's
 * compile directory, as addr2line gives it), summed per line and function; and one function's
 * instructions annotated with their lines and counts. An ELF without DWARF (stripped, built
 * without -g) or one libdw cannot read gives a note and rows without lines, never an error:
 * the counts are the profile's, whatever the file says. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/profile_internal.h"
#include "core/error.h"
#include "socmon/profile.h"

#define NO_FILE "??"

static int is_string_section(const char *name)
{
    static const char *const names[] = {".debug_str", ".debug_line_str", ".debug_str.dwo", ".debug_line_str.dwo",
                                        ".zdebug_str", ".zdebug_line_str"};
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

int smn_dwarf_strings_check(Elf *e, char *why, size_t len)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(e, &shstrndx) != 0)
        return 0;   /* no section names: libdw finds no DWARF either */
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
            continue;
        const char *name = elf_strptr(e, shstrndx, sh.sh_name);
        if (!is_string_section(name))
            continue;
        /* compressed: checked as libdw will see it, decompressed (in memory: the file is not touched) */
        int bad = 0;
        if (sh.sh_flags & SHF_COMPRESSED)
            bad = elf_compress(scn, 0, 0) < 0;
        else if (strncmp(name, ".zdebug", 7) == 0)
            bad = elf_compress_gnu(scn, 0, 0) < 0;
        Elf_Data *d = bad ? NULL : elf_getdata(scn, NULL);
        if (!bad && d && d->d_size && (!d->d_buf || ((const char *)d->d_buf)[d->d_size - 1] != '\0'))
            bad = 1;
        if (bad) {
            snprintf(why, len, "its DWARF string section %s %s", name,
                     d ? "does not end with a NUL byte (damaged)" : "cannot be read (damaged)");
            return -1;
        }
    }
    return 0;
}

/* A line table's file name as binutils' addr2line gives it: a relative one (libdw has joined it
 * with its line-table directory already, which may itself be relative: "../programs/crt0.S")
 * joined with the compile unit's directory, DW_AT_comp_dir; an absolute one, or one whose unit
 * names no directory, as it is. malloc'd; NULL when out of memory. */
char *smn_dwarf_file_name(const char *comp_dir, const char *name)
{
    if (name[0] == '/' || !comp_dir || !comp_dir[0])
        return strdup(name);
    size_t ld = strlen(comp_dir), ln = strlen(name);
    char *s = malloc(ld + 1 + ln + 1);
    if (!s)
        return NULL;
    memcpy(s, comp_dir, ld);
    if (comp_dir[ld - 1] != '/')   /* "/" and "/build/" give no doubled slash */
        s[ld++] = '/';
    memcpy(s + ld, name, ln + 1);
    return s;
}

int smn_dwarf_lines(Elf *e, const uint64_t *pcs, size_t n, char **file, unsigned *line)
{
    char why[160];
    for (size_t i = 0; i < n; i++)
        file[i] = NULL, line[i] = 0;
    if (smn_dwarf_strings_check(e, why, sizeof why) != 0)
        return -2;
    Dwarf *dw = dwarf_begin_elf(e, DWARF_C_READ, NULL);
    if (!dw)
        return -1;
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        Dwarf_Die cu;
        Dwarf_Line *l;
        int ln = 0;
        const char *src;
        file[i] = NULL;
        line[i] = 0;
        if (!dwarf_addrdie(dw, (Dwarf_Addr)pcs[i], &cu) || !(l = dwarf_getsrc_die(&cu, (Dwarf_Addr)pcs[i])))
            continue;
        if (dwarf_lineno(l, &ln) != 0 || ln < 0 || !(src = dwarf_linesrc(l, NULL, NULL)))
            continue;
        Dwarf_Attribute at;
        const char *dir = src[0] == '/' ? NULL : dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
        file[i] = smn_dwarf_file_name(dir, src);
        line[i] = (unsigned)ln;
        found += file[i] != NULL;
    }
    dwarf_end(dw);
    return found;
}

/* Every instruction's line (file[i] NULL: none); *note when the ELF gives none at all. */
static socmon_status lines_of(const socmon_profile *p, const char *elf, char ***files, unsigned **lines,
                              char **note)
{
    size_t n = p->ninsns;
    uint64_t *pcs = malloc((n ? n : 1) * sizeof *pcs);
    *files = calloc(n ? n : 1, sizeof **files);
    *lines = calloc(n ? n : 1, sizeof **lines);
    *note = NULL;
    if (!pcs || !*files || !*lines) {
        free(pcs);
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory for source lines");
    }
    for (size_t i = 0; i < n; i++)
        pcs[i] = p->insns[i].pc;
    const char *why = NULL;
    char damaged[160];
    int fd = -1, found = -1;
    Elf *e = NULL;
    if (!elf || !*elf)
        why = "the profile names no program file";
    else if (elf_version(EV_CURRENT) == EV_NONE)
        why = "libelf cannot start";
    else if ((fd = open(elf, O_RDONLY)) < 0)
        why = "cannot open the program file";
    else if (!(e = elf_begin(fd, ELF_C_READ, NULL)) || elf_kind(e) != ELF_K_ELF)
        why = "the program file is not an ELF file";
    else if (smn_dwarf_strings_check(e, damaged, sizeof damaged) != 0)
        why = damaged;
    else if ((found = smn_dwarf_lines(e, pcs, n, *files, *lines)) < 0)
        why = "it has no DWARF line table (built without -g, or stripped)";
    else if (found == 0)
        why = "its DWARF names no line for any instruction that ran";
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
    free(pcs);
    if (why) {
        size_t len = strlen(why) + (elf ? strlen(elf) : 0) + 96;
        if ((*note = malloc(len)))
            snprintf(*note, len, "no source lines from '%s': %s; rows per instruction instead", elf ? elf : "",
                     why);
    }
    return SOCMON_OK;
}

static void free_lines(char **files, size_t n)
{
    for (size_t i = 0; files && i < n; i++)
        free(files[i]);
    free(files);
}

/* ---- per line ---- */

typedef struct key {
    const char *file;
    unsigned line;
    size_t func, insn;
    uint64_t pc;                  /* per instruction: its PC, else UINT64_MAX */
} key;

static int by_key(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

static int row_by_v0(const void *a, const void *b)
{
    const socmon_profile_line *x = a, *y = b;
    if (x->v[0] != y->v[0])
        return x->v[0] > y->v[0] ? -1 : 1;
    int c = strcmp(x->file, y->file);
    return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

typedef struct lines_priv {
    socmon_profile_lines l;
    uint64_t *block;
} lines_priv;

socmon_status socmon_profile_lines_new(const socmon_profile *p, const char *elf, socmon_profile_lines **out)
{
    if (!p || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_lines_new: NULL argument");
    *out = NULL;
    char **files = NULL, *note = NULL;
    unsigned *lines = NULL;
    socmon_status st = lines_of(p, elf, &files, &lines, &note);
    size_t n = p->ninsns, E = p->nevents;
    key *k = st == SOCMON_OK ? malloc((n ? n : 1) * sizeof *k) : NULL;
    lines_priv *lp = k ? calloc(1, sizeof *lp) : NULL;
    socmon_profile_line *rows = lp ? calloc(n ? n : 1, sizeof *rows) : NULL;
    uint64_t *block = rows ? calloc((n ? n : 1) * E, sizeof *block) : NULL;
    if (st == SOCMON_OK && !block) {
        st = socmon_fail(SOCMON_ENOMEM, "profile: out of memory for source lines");
    }
    if (st != SOCMON_OK) {
        free_lines(files, n);
        free(lines);
        free(note);
        free(k);
        free(lp);
        free(rows);
        free(block);
        return st;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (key){.file = files[i] ? files[i] : NO_FILE, .line = files[i] ? lines[i] : 0,
                     .func = p->insns[i].func, .insn = i, .pc = note ? p->insns[i].pc : UINT64_MAX};
    qsort(k, n, sizeof *k, by_key);
    size_t nr = 0;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        if (i == 0 || by_key(&k[i - 1], &k[i]) != 0) {
            rows[nr] = (socmon_profile_line){.file = strdup(k[i].file), .line = k[i].line, .func = k[i].func,
                                              .pc = k[i].pc, .v = block + nr * E};
            if (!rows[nr].file)
                st = socmon_fail(SOCMON_ENOMEM, "profile: out of memory for source lines");
            nr++;
        }
        for (size_t e = 0; e < E; e++)
            rows[nr - 1].v[e] += p->insns[k[i].insn].v[e];
    }
    size_t kept = 0;
    for (size_t r = 0; r < nr; r++) {
        int any = 0;
        for (size_t e = 0; e < E; e++) {
            rows[r].v[e] &= p->widths[e] >= 64 ? UINT64_MAX : (UINT64_C(1) << p->widths[e]) - 1;
            any |= rows[r].v[e] != 0;
        }
        if (any)
            rows[kept++] = rows[r];   /* lines and instructions that never ran are left out */
        else
            free(rows[r].file);
    }
    nr = kept;
    qsort(rows, nr, sizeof *rows, row_by_v0);
    free(k);
    free_lines(files, n);
    free(lines);
    lp->l = (socmon_profile_lines){.nevents = E, .n = nr, .rows = rows, .note = note};
    lp->block = block;
    if (st != SOCMON_OK) {
        socmon_profile_lines_free(&lp->l);
        return st;
    }
    *out = &lp->l;
    return SOCMON_OK;
}

void socmon_profile_lines_free(socmon_profile_lines *l)
{
    if (!l)
        return;
    lines_priv *lp = (lines_priv *)l;
    for (size_t i = 0; i < l->n; i++)
        free(l->rows[i].file);
    free(l->rows);
    free(l->note);
    free(lp->block);
    free(lp);
}

/* ---- one function, annotated ---- */

/* Levenshtein distance, capped: how far a name is from what was asked. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

static socmon_status unknown_function(const socmon_profile *p, const char *func)
{
    char near[400] = "";
    size_t u = 0, shown = 0;
    for (size_t limit = 0; limit <= 3 && shown < 5; limit++)
        for (size_t f = 1; f < p->nfuncs && shown < 5; f++) {
            const char *name = p->funcs[f].name;
            size_t d = distance(func, name);
            int sub = strstr(name, func) != NULL && limit == 0;
            if ((d == limit || (sub && d > 3)) && u < sizeof near) {
                u += (size_t)snprintf(near + u, sizeof near - u, "%s%s", shown ? ", " : "", name);
                shown++;
            }
        }
    if (shown)
        return socmon_fail(SOCMON_ENOENT, "no function '%s' in the profile; nearest: %s", func, near);
    return socmon_fail(SOCMON_ENOENT, "no function '%s' in the profile (report --by-symbol lists them)", func);
}

socmon_status socmon_profile_annotate(const socmon_profile *p, const char *func, const char *elf,
                                      socmon_profile_annotation **out)
{
    if (!p || !func || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_annotate: NULL argument");
    *out = NULL;
    size_t f = 0;
    for (size_t i = 1; i < p->nfuncs && !f; i++)
        if (strcmp(p->funcs[i].name, func) == 0)
            f = i;
    if (!f)
        return unknown_function(p, func);
    char **files = NULL, *note = NULL;
    unsigned *lines = NULL;
    socmon_status st = lines_of(p, elf, &files, &lines, &note);
    if (st != SOCMON_OK)
        return st;
    size_t n = 0;
    for (size_t i = 0; i < p->ninsns; i++)
        n += p->insns[i].func == f;
    socmon_profile_annotation *a = calloc(1, sizeof *a);
    socmon_profile_asm *rows = a ? calloc(n ? n : 1, sizeof *rows) : NULL;
    if (!rows) {
        free(a);
        free_lines(files, p->ninsns);
        free(lines);
        free(note);
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory for the annotation");
    }
    size_t r = 0, hot = SIZE_MAX;
    for (size_t i = 0; i < p->ninsns; i++) {
        if (p->insns[i].func != f)
            continue;
        rows[r] = (socmon_profile_asm){.insn = &p->insns[i], .file = files[i], .line = files[i] ? lines[i] : 0};
        files[i] = NULL;   /* the row has it */
        if (p->insns[i].v[0] && (hot == SIZE_MAX || p->insns[i].v[0] > rows[hot].insn->v[0]))
            hot = r;
        r++;
    }
    if (hot != SIZE_MAX)
        rows[hot].hottest = 1;
    free_lines(files, p->ninsns);
    free(lines);
    *a = (socmon_profile_annotation){.func = f, .n = r, .rows = rows, .note = note};
    *out = a;
    return SOCMON_OK;
}

void socmon_profile_annotation_free(socmon_profile_annotation *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++)
        free(a->rows[i].file);
    free(a->rows);
    free(a->note);
    free(a);
}
