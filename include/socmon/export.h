/* What socmon exports from its shared library, and how its headers open.
 *
 * The library is built with hidden visibility: nothing is exported unless a
 * public header declares it. Every public header (socmon/ and the vendor
 * compatibility headers) wraps its declarations in SOCMON_BEGIN_DECLS /
 * SOCMON_END_DECLS, which give them C linkage in C++ and default
 * visibility, so the exported symbols are exactly the declared ones (a test
 * compares the two). Internal headers under src/ never use these macros. */
#ifndef SOCMON_EXPORT_H
#define SOCMON_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define SOCMON_VIS_PUSH _Pragma("GCC visibility push(default)")
#define SOCMON_VIS_POP _Pragma("GCC visibility pop")
#else
#define SOCMON_VIS_PUSH
#define SOCMON_VIS_POP
#endif

#ifdef __cplusplus
#define SOCMON_BEGIN_DECLS extern "C" { SOCMON_VIS_PUSH
#define SOCMON_END_DECLS SOCMON_VIS_POP }
#else
#define SOCMON_BEGIN_DECLS SOCMON_VIS_PUSH
#define SOCMON_END_DECLS SOCMON_VIS_POP
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SOCMON_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SOCMON_PRINTF(a, b)
#endif

#endif
