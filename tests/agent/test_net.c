/* The agent's socket helpers: ADDR:PORT parsing (IPv6 in brackets, port 0),
 * loopback detection for the bind rule, tokens (file rules, constant-time
 * comparison) and a bound port 0 reported back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve/net.h"

static void test_split(void **state)
{
    (void)state;
    char host[64];
    unsigned port;
    assert_int_equal(net_split("127.0.0.1:7461", host, sizeof host, &port), SOCMON_OK);
    assert_string_equal(host, "127.0.0.1");
    assert_int_equal(port, 7461);
    assert_int_equal(net_split("[::1]:0", host, sizeof host, &port), SOCMON_OK);
    assert_string_equal(host, "::1");
    assert_int_equal(port, 0);
    assert_int_equal(net_split("board.local:65535", host, sizeof host, &port), SOCMON_OK);
    assert_string_equal(host, "board.local");
    const char *bad[] = {"", "host", ":80", "h:", "h:65536", "h:-1", "h:+1", "h:12x", "::1:80", "[::1]80", "[::1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (net_split(bad[i], host, sizeof host, &port) == SOCMON_OK)
            fail_msg("'%s' was accepted", bad[i]);
        assert_true(*socmon_errmsg());
    }
    assert_int_equal(net_split("averyveryverylonghostname:1", host, 8, &port), SOCMON_ERANGE);
}

static void test_loopback(void **state)
{
    (void)state;
    struct sockaddr_in a4 = {.sin_family = AF_INET};
    struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};
    const char *yes4[] = {"127.0.0.1", "127.255.0.9"}, *no4[] = {"0.0.0.0", "10.0.0.1", "128.0.0.1"};
    for (int i = 0; i < 2; i++) {
        inet_pton(AF_INET, yes4[i], &a4.sin_addr);
        assert_true(net_is_loopback((struct sockaddr *)&a4));
    }
    for (int i = 0; i < 3; i++) {
        inet_pton(AF_INET, no4[i], &a4.sin_addr);
        assert_false(net_is_loopback((struct sockaddr *)&a4));
    }
    inet_pton(AF_INET6, "::1", &a6.sin6_addr);
    assert_true(net_is_loopback((struct sockaddr *)&a6));
    inet_pton(AF_INET6, "::ffff:127.0.0.1", &a6.sin6_addr);
    assert_true(net_is_loopback((struct sockaddr *)&a6));
    inet_pton(AF_INET6, "::", &a6.sin6_addr);
    assert_false(net_is_loopback((struct sockaddr *)&a6));
    inet_pton(AF_INET6, "::ffff:10.0.0.1", &a6.sin6_addr);
    assert_false(net_is_loopback((struct sockaddr *)&a6));
}

static void test_listen_port0(void **state)
{
    (void)state;
    int fd, lo;
    char bound[NET_ADDR_MAX];
    assert_int_equal(net_listen("127.0.0.1:0", &fd, &lo, bound, sizeof bound), SOCMON_OK);
    assert_true(lo);
    assert_non_null(strstr(bound, "127.0.0.1:"));
    assert_true(atoi(strrchr(bound, ':') + 1) > 0);
    close(fd);
    assert_int_equal(net_listen("0.0.0.0:0", &fd, &lo, bound, sizeof bound), SOCMON_OK);
    assert_false(lo);
    close(fd);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

static void test_tokens(void **state)
{
    (void)state;
    char dir[] = "/tmp/socmon_net_XXXXXX", path[64], tok[NET_TOKEN_MAX];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t", dir);
    write_file(path, "s3cret\nsecond line\n", 0600);
    assert_int_equal(net_read_token(path, tok), SOCMON_OK);
    assert_string_equal(tok, "s3cret");
    write_file(path, "s3cret", 0600);   /* no newline */
    assert_int_equal(net_read_token(path, tok), SOCMON_OK);
    assert_string_equal(tok, "s3cret");
    write_file(path, "s3cret\n", 0644);
    assert_int_equal(net_read_token(path, tok), SOCMON_EPERM);
    assert_non_null(strstr(socmon_errmsg(), "readable by others"));
    write_file(path, "\nx\n", 0600);
    assert_int_equal(net_read_token(path, tok), SOCMON_EINVAL);
    assert_int_equal(net_read_token("/nonexistent/token", tok), SOCMON_ENOENT);

    /* No newline, and the caller's buffer holds no NUL (garbage, as an
     * uninitialised one would): the token ends where the file does, and
     * nothing is read or written past the NET_TOKEN_MAX bytes (ASan). */
    char *guarded = malloc(NET_TOKEN_MAX + 8);
    memset(guarded, 'x', NET_TOKEN_MAX + 8);
    write_file(path, "short", 0600);
    assert_int_equal(net_read_token(path, guarded), SOCMON_OK);
    assert_string_equal(guarded, "short");
    assert_int_equal(guarded[NET_TOKEN_MAX], 'x');
    free(guarded);
    char *exact = malloc(NET_TOKEN_MAX + 1), *heap_tok = malloc(NET_TOKEN_MAX);
    memset(exact, 'a', NET_TOKEN_MAX);
    exact[NET_TOKEN_MAX] = '\0';
    memset(heap_tok, 'x', NET_TOKEN_MAX);
    write_file(path, exact, 0600);      /* NET_TOKEN_MAX bytes, no newline: one too many */
    assert_int_equal(net_read_token(path, heap_tok), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "longer than"));
    exact[NET_TOKEN_MAX - 1] = '\0';    /* NET_TOKEN_MAX - 1 bytes, no newline: fits exactly */
    write_file(path, exact, 0600);
    assert_int_equal(net_read_token(path, heap_tok), SOCMON_OK);
    assert_int_equal(strlen(heap_tok), NET_TOKEN_MAX - 1);
    free(exact);
    free(heap_tok);
    unlink(path);
    rmdir(dir);

    /* equal only when equal, whatever lies after the NUL in either buffer */
    char a[NET_TOKEN_MAX], b[NET_TOKEN_MAX];
    memset(a, 'x', sizeof a);
    memset(b, 'y', sizeof b);
    strcpy(a, "token");
    strcpy(b, "token");
    assert_true(net_token_equal(a, b));
    strcpy(b, "token2");
    assert_false(net_token_equal(a, b));
    strcpy(b, "toke");
    assert_false(net_token_equal(a, b));
    strcpy(b, "");
    assert_false(net_token_equal(a, b));
    strcpy(b, "tokeN");
    assert_false(net_token_equal(a, b));
}

/* The port file is written through a fresh temporary file, never through a
 * name planted in advance: a symlink at the old predictable PATH.tmpPID is
 * left alone and its target untouched. */
static void test_port_file_no_symlink(void **state)
{
    (void)state;
    char dir[] = "/tmp/socmon_net_XXXXXX", path[80], planted[96], victim[80], text[64] = {0};
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/port", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(planted, sizeof planted, "%s.tmp%ld", path, (long)getpid());
    write_file(victim, "precious\n", 0600);
    assert_int_equal(symlink(victim, planted), 0);
    assert_int_equal(net_write_port_file(path, 4242), SOCMON_OK);
    FILE *f = fopen(victim, "r");
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "precious\n");
    struct stat sb;
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    f = fopen(path, "r");
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "4242\n");
    unlink(planted);
    unlink(victim);
    unlink(path);
    assert_int_equal(rmdir(dir), 0);    /* no temporary file left behind */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_loopback),
        cmocka_unit_test(test_listen_port0),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_port_file_no_symlink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
