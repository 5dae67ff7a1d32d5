/* libFuzzer harness for the ESP SoC description parser. A description that
 * parses must also build an SoC, so the parser never accepts what soc_new
 * would reject. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/esp/esp_soc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    socmon_esp_soc_desc d;
    if (socmon_esp_soc_desc_parse(text, "fuzz.soc", &d) == SOCMON_OK) {
        socmon_esp_soc *soc = NULL;
        if (smn_esp_soc_new(&d, &soc) != SOCMON_OK)
            abort();
        smn_esp_soc_free(soc);
    }
    free(text);
    return 0;
}
