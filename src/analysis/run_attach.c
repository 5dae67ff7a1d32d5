/* What a target's run leaves beside its samples in a recording (analysis/run_attach.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/run_attach.h"
#include "socmon/phase.h"
#include "socmon/profile.h"

socmon_status smn_attach_profile(socmon_target *t, socmon_recwriter *w)
{
    socmon_profile *prof = NULL;
    char *json = NULL;
    size_t len = 0;
    if (socmon_target_profile(t, &prof) != SOCMON_OK) {
        socmon_clear_error();
        return SOCMON_OK;
    }
    socmon_status st = socmon_profile_to_json(prof, &json, &len);
    if (st == SOCMON_OK)
        st = socmon_recwriter_attach(w, "profile", json, len);
    free(json);
    socmon_profile_free(prof);
    return st;
}

socmon_status smn_attach_phases(socmon_target *t, socmon_recwriter *w)
{
    socmon_phase ph[64];
    size_t n = socmon_target_phases(t, ph, 64);
    char *text = NULL;
    size_t len = 0;
    if (n == 0)
        return SOCMON_OK;
    socmon_status st = socmon_phases_format(ph, n < 64 ? n : 64, &text, &len);
    if (st == SOCMON_OK)
        st = socmon_recwriter_attach(w, "phases", text, len);
    free(text);
    return st;
}

socmon_status smn_attach_params(socmon_target *t, socmon_recwriter *w, const double *params0, size_t nparams0)
{
    const socmon_device *dev = socmon_target_device(t);
    size_t n = socmon_device_nparams(dev), len = 0, cap = 0;
    char *text = NULL;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        const char *name;
        double v;
        socmon_device_param_at(dev, i, &name, &v);
        if (i < nparams0 && (v == params0[i] || (isnan(v) && isnan(params0[i]))))
            continue;
        int k = snprintf(NULL, 0, "%s %.17g\n", name, v);
        if (len + (size_t)k + 1 > cap) {
            char *g = realloc(text, cap = (len + (size_t)k + 1) * 2);
            if (!g) {
                st = socmon_fail(SOCMON_ENOMEM, "record: out of memory");
                break;
            }
            text = g;
        }
        len += (size_t)snprintf(text + len, cap - len, "%s %.17g\n", name, v);
    }
    if (st == SOCMON_OK && len)
        st = socmon_recwriter_attach(w, "params", text, len);
    free(text);
    return st;
}
