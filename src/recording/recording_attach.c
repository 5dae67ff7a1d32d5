/* Attachments: named documents a recording carries besides its samples (a program's exact
 * profile, `socmon record -t ibex`), each one record between the blocks:
 *
 *   marker "\x89SMATT\r\n", name_len u32 (1..64), name, raw_len u32, comp_len u32, payload CRC u32,
 *   header CRC u32 (of every byte before it), payload: one zstd frame of raw_len bytes
 *
 * A reader that meets a record whose header does not check skips it like a damaged block; one
 * whose payload does not check is damage too, and the attachment is missing. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "core/error.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "socmon/recording.h"

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)socmon_rec2_get(p, 4);
}

socmon_status smn_rec2_attach_encode(const char *name, const void *data, size_t len, int level, uint8_t **out,
                                     size_t *outlen)
{
    size_t nl = name ? strlen(name) : 0;
    *out = NULL;
    if (nl < 1 || nl > SOCMON_REC2_MAX_ATTACH_NAME)
        return socmon_fail(SOCMON_EINVAL, "recording: attachment name of %zu bytes (1..%u)", nl,
                           SOCMON_REC2_MAX_ATTACH_NAME);
    if (len > SOCMON_REC2_MAX_ATTACH_RAW)
        return socmon_fail(SOCMON_ERANGE, "recording: attachment '%s' of %zu bytes (at most %u)", name, len,
                           SOCMON_REC2_MAX_ATTACH_RAW);
    size_t hdr = SOCMON_REC2_ATTACH_FIXED + nl, bound = ZSTD_compressBound(len);
    uint8_t *b = malloc(hdr + bound);
    if (!b)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for attachment '%s'", name);
    size_t comp = ZSTD_compress(b + hdr, bound, data, len, level);
    if (ZSTD_isError(comp)) {
        free(b);
        return socmon_fail(SOCMON_EIO, "recording: zstd cannot compress attachment '%s': %s", name,
                           ZSTD_getErrorName(comp));
    }
    memcpy(b, SOCMON_REC2_ATTACH_MARK, 8);
    socmon_rec2_put32(b + 8, (uint32_t)nl);
    memcpy(b + 12, name, nl);
    socmon_rec2_put32(b + 12 + nl, (uint32_t)len);
    socmon_rec2_put32(b + 16 + nl, (uint32_t)comp);
    socmon_rec2_put32(b + 20 + nl, smn_crc32(0, b + hdr, comp));
    socmon_rec2_put32(b + 24 + nl, smn_crc32(0, b, 24 + nl));
    *out = b;
    *outlen = hdr + comp;
    return SOCMON_OK;
}

size_t smn_rec2_attach_len(const uint8_t *p, size_t avail)
{
    if (avail < SOCMON_REC2_ATTACH_FIXED + 1 || memcmp(p, SOCMON_REC2_ATTACH_MARK, 8) != 0)
        return 0;
    uint32_t nl = get32(p + 8);
    if (nl < 1 || nl > SOCMON_REC2_MAX_ATTACH_NAME || avail < SOCMON_REC2_ATTACH_FIXED + nl)
        return 0;
    if (smn_crc32(0, p, 24 + nl) != get32(p + 24 + nl))
        return 0;
    uint32_t raw = get32(p + 12 + nl), comp = get32(p + 16 + nl);
    if (raw > SOCMON_REC2_MAX_ATTACH_RAW || comp > avail - SOCMON_REC2_ATTACH_FIXED - nl)
        return 0;
    return SOCMON_REC2_ATTACH_FIXED + nl + comp;
}

int smn_rec2_attach_name(const uint8_t *p, char name[SOCMON_REC2_MAX_ATTACH_NAME + 1])
{
    uint32_t nl = get32(p + 8), comp = get32(p + 16 + nl);
    if (memchr(p + 12, '\0', nl) || smn_crc32(0, p + SOCMON_REC2_ATTACH_FIXED + nl, comp) != get32(p + 20 + nl))
        return 0;
    memcpy(name, p + 12, nl);
    name[nl] = '\0';
    return 1;
}

socmon_status smn_rec2_attach_decode(socmon_recording *rec, const uint8_t *p, size_t len)
{
    uint32_t nl = get32(p + 8), raw = get32(p + 12 + nl), comp = get32(p + 16 + nl);
    const uint8_t *payload = p + SOCMON_REC2_ATTACH_FIXED + nl;
    if (smn_crc32(0, payload, comp) != get32(p + 20 + nl))
        return socmon_fail(SOCMON_EPARSE, "attachment payload CRC does not check");
    if (ZSTD_getFrameContentSize(payload, comp) != raw)
        return socmon_fail(SOCMON_EPARSE, "attachment frame size is not the header's %u bytes", raw);
    if (memchr(p + 12, '\0', nl))
        return socmon_fail(SOCMON_EPARSE, "attachment name holds a NUL byte");
    for (size_t i = 0; i < rec->nattach; i++)
        if (strlen(rec->attach[i].name) == nl && memcmp(rec->attach[i].name, p + 12, nl) == 0)
            return socmon_fail(SOCMON_EPARSE, "a second attachment '%.*s'", (int)nl, (const char *)p + 12);
    if (rec->nattach >= SOCMON_REC2_MAX_ATTACHMENTS)
        return socmon_fail(SOCMON_EPARSE, "more than %u attachments", SOCMON_REC2_MAX_ATTACHMENTS);
    uint8_t *data = malloc(raw ? raw : 1);
    char *name = malloc(nl + 1);
    struct smn_rec_attachment *v = realloc(rec->attach, (rec->nattach + 1) * sizeof *v);
    if (v)
        rec->attach = v;
    if (!data || !name || !v) {
        free(data);
        free(name);
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for an attachment of %u bytes", raw);
    }
    size_t got = ZSTD_decompress(data, raw, payload, comp);
    if (ZSTD_isError(got) || got != raw) {
        free(data);
        free(name);
        return socmon_fail(SOCMON_EPARSE, "attachment payload does not decompress to %u bytes", raw);
    }
    memcpy(name, p + 12, nl);
    name[nl] = '\0';
    rec->attach[rec->nattach++] = (struct smn_rec_attachment){.name = name, .data = data, .len = raw,
                                                              .file_bytes = len};
    return SOCMON_OK;
}

void smn_rec_attach_free(socmon_recording *rec)
{
    for (size_t i = 0; i < rec->nattach; i++) {
        free(rec->attach[i].name);
        free(rec->attach[i].data);
    }
    free(rec->attach);
    rec->attach = NULL;
    rec->nattach = 0;
}

socmon_status socmon_recording_attachment(const socmon_recording *rec, const char *name, const void **data,
                                          size_t *len)
{
    if (!rec || !name || !data || !len)
        return socmon_fail(SOCMON_EINVAL, "socmon_recording_attachment: NULL argument");
    for (size_t i = 0; i < rec->nattach; i++)
        if (strcmp(rec->attach[i].name, name) == 0) {
            *data = rec->attach[i].data;
            *len = rec->attach[i].len;
            return SOCMON_OK;
        }
    return socmon_fail(SOCMON_ENOENT, "the recording has no '%s'", name);
}

size_t socmon_recording_nattachments(const socmon_recording *rec)
{
    return rec ? rec->nattach : 0;
}

const char *socmon_recording_attachment_at(const socmon_recording *rec, size_t i, size_t *len,
                                           uint64_t *file_bytes)
{
    if (!rec || i >= rec->nattach)
        return NULL;
    if (len)
        *len = rec->attach[i].len;
    if (file_bytes)
        *file_bytes = rec->attach[i].file_bytes;
    return rec->attach[i].name;
}
