"""The Tensix module's old name: it moved into the socmon package as socmon.tensix.

`import socmon_tensix` keeps working: the name is bound to socmon.tensix itself, so both names
give the very same module (its functions, constants and state).
"""

import sys

from socmon import tensix as _tensix

sys.modules[__name__] = _tensix
