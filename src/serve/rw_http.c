/* One Remote-Write POST through libcurl (rw_internal.h): the protocol's three headers, the
 * bearer token, and what came back sorted into sent, refused or worth retrying, in words that
 * name what failed (no connection, TLS, a timeout, the receiver's own message). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "core/text.h"
#include "serve/rw_encode.h"
#include "serve/rw_internal.h"

enum { BODY_KEEP = 512 };   /* of a receiver's answer: enough for its message */

typedef struct answer_body {
    char buf[BODY_KEEP];
    size_t len;
} answer_body;

/* Keeps the first BODY_KEEP bytes of the answer, takes (and forgets) the rest: a receiver that
 * answers with megabytes costs no memory. */
static size_t keep_body(char *data, size_t size, size_t n, void *user)
{
    answer_body *b = user;
    size_t len = size * n, room = sizeof b->buf - b->len;
    memcpy(b->buf + b->len, data, len < room ? len : room);
    b->len += len < room ? len : room;
    return len;
}

/* A request in flight when the end's drain time runs out is given up: the end of a run never
 * waits longer than drain_ns for a receiver that does not answer. */
static int progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    smn_rw *rw = user;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    pthread_mutex_lock(&rw->mu);
    int late = rw->draining && now >= rw->deadline_ns;
    pthread_mutex_unlock(&rw->mu);
    return late;
}

static int make_handle(smn_rw *rw)
{
    CURL *c = curl_easy_init();
    if (!c)
        return -1;
    struct curl_slist *h = NULL;
    h = curl_slist_append(h, "Content-Encoding: snappy");
    h = curl_slist_append(h, "Content-Type: application/x-protobuf");
    h = curl_slist_append(h, "X-Prometheus-Remote-Write-Version: 0.1.0");
    h = curl_slist_append(h, "User-Agent: socmon-remote-write");
    h = curl_slist_append(h, "Expect:");   /* no 100-continue round trip before every body */
    if (rw->token) {
        char auth[4200];
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", rw->token);
        h = curl_slist_append(h, auth);
        memset(auth, 0, sizeof auth);
    }
    if (!h) {
        curl_easy_cleanup(c);
        return -1;
    }
    curl_easy_setopt(c, CURLOPT_URL, rw->url);   /* user:password@ in it is basic auth */
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);   /* a thread of a program with its own signals */
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, keep_body);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, rw);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    rw->curl = c;
    rw->headers = h;
    return 0;
}

/* Words for a transport failure: which step failed, then curl's own detail. */
static const char *what_failed(CURLcode rc)
{
    switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST: return "cannot resolve the host";
    case CURLE_COULDNT_CONNECT: return "cannot connect (is the receiver up, and on that port?)";
    case CURLE_OPERATION_TIMEDOUT: return "no answer in time";
    case CURLE_SSL_CONNECT_ERROR: return "TLS handshake failed (is it an https receiver?)";
    case CURLE_PEER_FAILED_VERIFICATION: return "TLS: the receiver's certificate did not verify";
    case CURLE_SSL_CACERT_BADFILE: return "TLS: the CA certificates could not be read";
    case CURLE_GOT_NOTHING: return "the receiver closed the connection without an answer";
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR: return "the connection broke";
    case CURLE_WEIRD_SERVER_REPLY: return "the answer is not HTTP";
    case CURLE_ABORTED_BY_CALLBACK: return "given up at the end of the run";
    default: return "the request failed";
    }
}

void smn_rw_post(smn_rw *rw, const uint8_t *body, size_t len, uint64_t limit_ns, smn_rw_answer *a)
{
    memset(a, 0, sizeof *a);
    if (!rw->curl && make_handle(rw) != 0) {
        a->retry = 1;
        snprintf(a->text, sizeof a->text, "libcurl: out of memory");
        return;
    }
    CURL *c = rw->curl;
    answer_body ab = {.len = 0};
    char err[CURL_ERROR_SIZE] = "";
    uint64_t limit = limit_ns && limit_ns < rw->o.timeout_ns ? limit_ns : rw->o.timeout_ns;
    long ms = (long)(limit / 1000000u);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms > 0 ? ms : 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, ms > 0 ? ms : 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, (const char *)body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &ab);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    CURLcode rc = curl_easy_perform(c);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
    if (rc != CURLE_OK) {
        char esc[2 * CURL_ERROR_SIZE];
        smn_text_escape(esc, sizeof esc, *err ? err : curl_easy_strerror(rc));
        snprintf(a->text, sizeof a->text, "%s: %s", what_failed(rc), esc);
        a->retry = 1;
        return;
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &a->status);
    if (a->status >= 200 && a->status < 300) {
        a->ok = 1;
        return;
    }
    a->retry = smn_rw_status_retryable(a->status) || a->status < 200;
    char said[400];
    smn_rw_answer_text(said, sizeof said, a->status, ab.buf, ab.len);
    snprintf(a->text, sizeof a->text, "%s", said);
}

void smn_rw_curl_free(smn_rw *rw)
{
    if (rw->curl)
        curl_easy_cleanup(rw->curl);
    curl_slist_free_all(rw->headers);
    rw->curl = rw->headers = NULL;
}
