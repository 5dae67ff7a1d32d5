"""A PEP 517 build backend for the socmon package, standard library only.

setuptools is not in a fresh venv and PyPI is out of reach here, so the package builds itself:
a wheel is a zip of the package directories and a .dist-info (METADATA, WHEEL, RECORD), and an
sdist a tar.gz of this directory. The name comes from pyproject.toml, the version from the library's
include/socmon/version.h (the one place it is written; an sdist carries it as socmon/_version.py).
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ["socmon", "socmon_tensix"]


def _version():
    header = os.path.join(HERE, "..", "include", "socmon", "version.h")
    if os.path.exists(header):
        with open(header, encoding="utf-8") as f:
            text = f.read()
        parts = [re.search(r"^#define SOCMON_VERSION_%s (\d+)$" % k, text, re.M) for k in ("MAJOR", "MINOR", "PATCH")]
        if all(parts):
            return ".".join(p.group(1) for p in parts)
        raise RuntimeError("%s: SOCMON_VERSION_MAJOR/MINOR/PATCH not found" % header)
    with open(os.path.join(HERE, "socmon", "_version.py"), encoding="utf-8") as f:   # an sdist
        return re.search(r'^VERSION = "([^"]+)"', f.read(), re.M).group(1)


def _version_py(version):
    return ('"""Written by the wheel\'s build (python/_build/socmon_build.py) and by cmake --install: the\n'
            'version of this socmon, from include/socmon/version.h, the one place it is written."""\n'
            'VERSION = "%s"\n' % version).encode()


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("[project]", 1)[1]
    name = re.search(r'^name\s*=\s*"([^"]+)"', section, re.M).group(1)
    version = _version()
    desc = re.search(r'^description\s*=\s*"([^"]*)"', section, re.M)
    return name, version, desc.group(1) if desc else ""


def _metadata():
    name, version, desc = _project()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: >=3.8\n"
            "Provides-Extra: pandas\nRequires-Dist: pandas; extra == \"pandas\"\n" % (name, version, desc))


def _files():
    for pkg in PACKAGES:
        for root, dirs, files in os.walk(os.path.join(HERE, pkg)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                # _install.py is an install's own; _version.py is written from version.h
                if f.endswith(".py") and f not in ("_install.py", "_version.py"):
                    full = os.path.join(root, f)
                    yield full, os.path.relpath(full, HERE).replace(os.sep, "/")


def _hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name, version, _ = _project()
    dist = "%s-%s.dist-info" % (name, version)
    wheel = "%s-%s-py3-none-any.whl" % (name, version)
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        def put(arc, data):
            z.writestr(arc, data)
            record.append("%s,%s,%d" % (arc, _hash(data), len(data)))
        for full, arc in _files():
            with open(full, "rb") as f:
                put(arc, f.read())
        put("socmon/_version.py", _version_py(version))
        put(dist + "/METADATA", _metadata().encode())
        put(dist + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: socmon_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        put(dist + "/top_level.txt", ("\n".join(PACKAGES) + "\n").encode())
        record.append(dist + "/RECORD,,")
        z.writestr(dist + "/RECORD", "\n".join(record) + "\n")
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    name, version, _ = _project()
    base = "%s-%s" % (name, version)
    out = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, out), "w:gz") as t:
        for rel in ["pyproject.toml", "_build/socmon_build.py"] + [arc for _, arc in _files()]:
            t.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        vpy = _version_py(version)
        ti = tarfile.TarInfo(base + "/socmon/_version.py")
        ti.size = len(vpy)
        t.addfile(ti, io.BytesIO(vpy))
        info = _metadata().encode()
        ti = tarfile.TarInfo(base + "/PKG-INFO")
        ti.size = len(info)
        t.addfile(ti, io.BytesIO(info))
    return out
