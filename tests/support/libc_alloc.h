/* For a test that replaces malloc, calloc, realloc and free with shims of its own (to count
 * allocations, or to fail one): glibc's own entry points, which the shims call, and NO_SHIM
 * where a sanitizer's allocator is in the process (ASan, TSan: it cannot be wrapped this way,
 * and such a test skips what needs its shim). */
#ifndef SOCMON_TESTS_LIBC_ALLOC_H
#define SOCMON_TESTS_LIBC_ALLOC_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NO_SHIM 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NO_SHIM 1
#endif
#endif

#ifndef NO_SHIM
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
#endif

#endif
