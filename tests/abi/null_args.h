/* The table tests/abi/null_args_gen.py writes from the public headers for test_null_args.c:
 * every public function, its parameters and what its comment says about NULL. */
#ifndef SOCMON_TESTS_NULL_ARGS_H
#define SOCMON_TESTS_NULL_ARGS_H

#include <stddef.h>

typedef enum { NA_END, NA_PTR, NA_FNPTR, NA_STRUCT, NA_SCALAR, NA_VARARGS } na_kind;

typedef struct na_param {
    na_kind kind;
    const char *base;    /* the type pointed to (NA_PTR), the typedef (NA_FNPTR, NA_STRUCT) */
    const char *name;
    const char *ctype;   /* as declared, without the name */
    int doc;             /* its comment names it with NULL (the contract is written down) */
    int ok;              /* ... and allows NULL */
} na_param;

typedef struct na_func {
    const char *name, *header;
    int status;          /* returns socmon_status */
    const na_param *params;   /* up to NA_END */
    long long (*call)(void *const *p, const long long *v);   /* p[k], v[k]: argument k */
} na_func;

extern const na_func na_funcs[];
extern const size_t na_nfuncs;
extern const char *const na_opaque[];   /* the public types declared but never defined */

#endif
