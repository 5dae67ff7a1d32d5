/* Socket helpers (see net.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve/net.h"
#include "socmon/status.h"

socmon_status net_split(const char *spec, char *host, size_t hostlen, unsigned *port)
{
    const char *colon, *h = spec;
    size_t hl;
    if (!spec || !*spec)
        return socmon_fail(SOCMON_EINVAL, "empty address: give HOST:PORT, e.g. 127.0.0.1:7461");
    if (spec[0] == '[') {
        const char *close = strchr(spec, ']');
        if (!close || close[1] != ':')
            return socmon_fail(SOCMON_EINVAL, "address '%s': an IPv6 address is written [ADDR]:PORT", spec);
        h = spec + 1;
        hl = (size_t)(close - h);
        colon = close + 1;
    } else {
        colon = strrchr(spec, ':');
        if (!colon)
            return socmon_fail(SOCMON_EINVAL, "address '%s' has no port: give HOST:PORT, e.g. %s:%d", spec, spec,
                               NET_DEFAULT_PORT);
        if (memchr(spec, ':', (size_t)(colon - spec)))
            return socmon_fail(SOCMON_EINVAL, "address '%s': write an IPv6 address as [ADDR]:PORT", spec);
        hl = (size_t)(colon - spec);
    }
    if (hl == 0)
        return socmon_fail(SOCMON_EINVAL, "address '%s' has no host (e.g. 127.0.0.1:%d)", spec, NET_DEFAULT_PORT);
    if (hl >= hostlen)
        return socmon_fail(SOCMON_ERANGE, "address '%s': host name too long", spec);
    char *end;
    errno = 0;
    unsigned long p = strtoul(colon + 1, &end, 10);
    if (!colon[1] || *end || errno || p > 65535 || colon[1] == '-' || colon[1] == '+')
        return socmon_fail(SOCMON_EINVAL, "address '%s': port '%s' is not a number 0..65535", spec, colon + 1);
    memcpy(host, h, hl);
    host[hl] = '\0';
    *port = (unsigned)p;
    return SOCMON_OK;
}

static socmon_status resolve(const char *spec, int passive, struct addrinfo **res)
{
    char host[NET_ADDR_MAX], port[8];
    unsigned p = 0; /* net_split sets it on SOCMON_OK (-O3 cannot tell) */
    socmon_status st = net_split(spec, host, sizeof host, &p);
    if (st != SOCMON_OK)
        return st;
    snprintf(port, sizeof port, "%u", p);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = passive ? AI_PASSIVE : AI_ADDRCONFIG};
    int e = getaddrinfo(host, port, &hints, res);
    if (e != 0)
        return socmon_fail(SOCMON_ENOENT, "address '%s': cannot resolve '%s': %s", spec, host, gai_strerror(e));
    return SOCMON_OK;
}

int net_is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a))
            return 1;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return 0;
}

void net_format(const struct sockaddr *sa, char *buf, size_t len)
{
    char h[INET6_ADDRSTRLEN] = "?";
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *s = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &s->sin_addr, h, sizeof h);
        snprintf(buf, len, "%s:%u", h, ntohs(s->sin_port));
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &s->sin6_addr, h, sizeof h);
        snprintf(buf, len, "[%s]:%u", h, ntohs(s->sin6_port));
    } else {
        snprintf(buf, len, "(address family %d)", sa->sa_family);
    }
}

int net_set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

socmon_status net_listen(const char *spec, int *fd, int *loopback, char *bound, size_t boundlen)
{
    struct addrinfo *res;
    socmon_status st = resolve(spec, 1, &res);
    if (st != SOCMON_OK)
        return st;
    /* The first address that binds: a name such as "localhost" may resolve to
     * both families; one listening socket is enough for the agent. */
    int err = 0, s = -1;
    for (struct addrinfo *ai = res; ai && s < 0; ai = ai->ai_next) {
        s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (s < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(s, ai->ai_addr, ai->ai_addrlen) != 0 || listen(s, 64) != 0 || net_set_nonblock(s) != 0) {
            err = errno;
            close(s);
            s = -1;
        }
    }
    freeaddrinfo(res);
    if (s < 0)
        return socmon_fail(err == EACCES ? SOCMON_EPERM : SOCMON_EIO, "cannot listen on '%s': %s", spec,
                           strerror(err));
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(s, (struct sockaddr *)&ss, &sl);
    *loopback = net_is_loopback((struct sockaddr *)&ss);
    net_format((struct sockaddr *)&ss, bound, boundlen);
    *fd = s;
    return SOCMON_OK;
}

/* connect(2) with a time limit: nonblocking, then poll for the result. */
static int connect_within(int s, const struct sockaddr *sa, socklen_t len, int timeout_ms)
{
    if (net_set_nonblock(s) != 0)
        return errno;
    if (connect(s, sa, len) == 0)
        return 0;
    if (errno != EINPROGRESS)
        return errno;
    struct pollfd p = {s, POLLOUT, 0};
    int n;
    while ((n = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
        ;
    if (n == 0)
        return ETIMEDOUT;
    int e = 0;
    socklen_t el = sizeof e;
    getsockopt(s, SOL_SOCKET, SO_ERROR, &e, &el);
    return e;
}

socmon_status net_connect(const char *spec, int timeout_ms, int *fd)
{
    struct addrinfo *res;
    socmon_status st = resolve(spec, 0, &res);
    if (st != SOCMON_OK)
        return st;
    int err = 0, s = -1;
    for (struct addrinfo *ai = res; ai && s < 0; ai = ai->ai_next) {
        s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (s < 0) {
            err = errno;
            continue;
        }
        if ((err = connect_within(s, ai->ai_addr, ai->ai_addrlen, timeout_ms)) != 0) {
            close(s);
            s = -1;
        }
    }
    freeaddrinfo(res);
    if (s < 0) {
        if (err == ECONNREFUSED)
            return socmon_fail(SOCMON_EIO, "connecting to %s: connection refused (is 'socmon agent' running "
                               "there and listening on that port?)", spec);
        return socmon_fail(SOCMON_EIO, "connecting to %s: %s", spec, strerror(err));
    }
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *fd = s;
    return SOCMON_OK;
}

socmon_status net_read_token(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return socmon_fail(errno == EACCES ? SOCMON_EPERM : SOCMON_ENOENT, "token file '%s': %s", path,
                           strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 077)) {
        close(fd);
        return socmon_fail(SOCMON_EPERM, "token file '%s' is readable by others (mode %03o): chmod 600 it",
                           path, (unsigned)(sb.st_mode & 0777));
    }
    /* At most NET_TOKEN_MAX - 1 bytes fit with the NUL; one more byte is read
     * (into a local buffer) only to tell "too long" from "exactly fits". The
     * line end is looked for within the bytes read, never past them. */
    char raw[NET_TOKEN_MAX];
    size_t n = 0;
    while (n < sizeof raw) {
        ssize_t r = read(fd, raw + n, sizeof raw - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return socmon_fail(SOCMON_EIO, "token file '%s': %s", path, strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (memchr(raw, '\n', n))
            break;
    }
    close(fd);
    const char *nl = memchr(raw, '\n', n);
    size_t len = nl ? (size_t)(nl - raw) : n;
    const char *cr = memchr(raw, '\r', len);
    if (cr)
        len = (size_t)(cr - raw);
    if (len >= NET_TOKEN_MAX)
        return socmon_fail(SOCMON_ERANGE, "token file '%s': the token is longer than %d bytes", path,
                           NET_TOKEN_MAX - 1);
    memcpy(buf, raw, len);
    buf[len] = '\0';
    if (len == 0 || memchr(buf, 0, len))
        return socmon_fail(SOCMON_EINVAL, "token file '%s': empty first line (or a NUL byte in it)", path);
    return SOCMON_OK;
}

int net_token_equal(const char *a, const char *b)
{
    /* Every byte of both buffers is read and compared whatever the contents
     * (bytes after a string's NUL masked to 0 without a branch), so the time
     * says nothing about how much of a guess was right nor how long it is. */
    unsigned diff = 0, live_a = 0xffu, live_b = 0xffu;
    for (size_t i = 0; i < NET_TOKEN_MAX; i++) {
        unsigned ca = (unsigned char)a[i] & live_a, cb = (unsigned char)b[i] & live_b;
        diff |= ca ^ cb;
        live_a &= 0u - (unsigned)(ca != 0);
        live_b &= 0u - (unsigned)(cb != 0);
    }
    return diff == 0;
}

socmon_status net_write_port_file(const char *path, unsigned port)
{
    /* This runs as root before the privilege drop: the temporary name is made
     * by mkstemp (unpredictable, O_EXCL, so never an existing file or a
     * symlink someone planted), in the same directory so rename is atomic. */
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp)
        return socmon_fail(SOCMON_EINVAL, "port file '%s': path too long", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return socmon_fail(SOCMON_EIO, "port file '%s': %s", tmp, strerror(errno));
    char text[32];
    int len = snprintf(text, sizeof text, "%u\n", port);
    int bad = fchmod(fd, 0644) != 0 || write(fd, text, (size_t)len) != len;
    int e = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        unlink(tmp);
        return socmon_fail(SOCMON_EIO, "port file '%s': %s", path, strerror(e));
    }
    return SOCMON_OK;
}
