/* ESP names its Monitors API header monitors.h; programs include it by that name. */
#include "esp_monitors.h"
