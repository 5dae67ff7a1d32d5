/* Embench board support for Ibex simple_system: nothing to set up, the triggers do nothing
   (socmon counts the whole run). */
#include "support.h"
void initialise_board(void) {}
void start_trigger(void) {}
void stop_trigger(void) {}
