"""The in-tree PEP 517 backend of pyproject.toml: CMake builds the target softcert_python (the
package build/python/softcert/ of CMakeLists.txt) and this module zips that package into a wheel.

Why in-tree: Debian 12 has no scikit-build-core, and a backend with no requirements works
offline both with and without build isolation (pip installs nothing to run it).

Build directory, the first of:
  1. $SOFTCERT_BUILD_DIR when set (the ctest test python_pip_install points it at its own build);
  2. build/ in the source tree when it is a CMake build of this tree with the Python module
     configured for this interpreter's extension suffix (its CMakeCache.txt says so: `make`,
     `make python` and the README's build make one) — so `pip install .` after `make` reuses it;
  3. build/pip-<python tag> (configured on first use: a first build compiles the engine).
In every case only the target softcert_python is built: what is out of date in that directory
is recompiled (nothing when it is up to date). A directory given by $SOFTCERT_BUILD_DIR must be
configured for the interpreter pip runs: the extension's suffix is checked against this
interpreter's and a mismatch is refused with both names.
Environment: SOFTCERT_BUILD_JOBS (default 2) parallel compile jobs, SOFTCERT_CMAKE_ARGS extra
configure arguments (split on spaces).
"""
import base64
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAME = "softcert"


def _version():
    with open(os.path.join(SOURCE, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(softcert VERSION ([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("softcert build backend: no 'project(softcert VERSION x.y.z' in CMakeLists.txt")
    return m.group(1)


def _tag():
    py = "cp%d%d" % sys.version_info[:2]
    abi = py + getattr(sys, "abiflags", "")
    plat = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return py, abi, plat


def _say(text):
    print("softcert build backend: " + text, file=sys.stderr, flush=True)


def _run(cmd):
    _say(" ".join(shlex.quote(c) for c in cmd))
    subprocess.run(cmd, check=True)


def _cache_entries(cache):
    """KEY -> VALUE of a CMakeCache.txt (lines KEY:TYPE=VALUE)."""
    entries = {}
    with open(cache, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_.-]*):[A-Z]+=(.*)$", line.rstrip("\n"))
            if m:
                entries[m.group(1)] = m.group(2)
    return entries


def _reusable_tree_build():
    """SOURCE/build when it is a CMake build of this source tree with the Python module for this
    interpreter (the extension suffix CMake found equals this interpreter's), else None."""
    build = os.path.join(SOURCE, "build")
    cache = os.path.join(build, "CMakeCache.txt")
    if not os.path.isfile(cache):
        return None
    e = _cache_entries(cache)
    home = e.get("CMAKE_HOME_DIRECTORY", "")
    if not home or os.path.realpath(home) != os.path.realpath(SOURCE):
        return None
    if e.get("SOFTCERT_PYTHON", "ON").upper() in ("OFF", "0", "FALSE", "NO"):
        return None
    if e.get("PYTHON_MODULE_EXTENSION") != sysconfig.get_config_var("EXT_SUFFIX"):
        return None
    return build


def _build_dir():
    given = os.environ.get("SOFTCERT_BUILD_DIR")
    if given:
        return os.path.abspath(given)
    return _reusable_tree_build() or os.path.join(SOURCE, "build", "pip-" + "-".join(_tag()))


def _build_package():
    """Configures (if needed) and builds softcert_python; returns the package directory."""
    build = _build_dir()
    _say("build directory " + build)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        cmd = ["cmake", "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
               "-DPython3_EXECUTABLE=" + sys.executable, "-DSOFTCERT_PYTHON=ON"]
        if shutil.which("ninja"):
            cmd += ["-G", "Ninja"]
        cmd += shlex.split(os.environ.get("SOFTCERT_CMAKE_ARGS", ""))
        _run(cmd)
    jobs = os.environ.get("SOFTCERT_BUILD_JOBS", "2")
    _run(["cmake", "--build", build, "--target", "softcert_python", "-j", jobs])
    package = os.path.join(build, "python", NAME)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    cores = [f for f in os.listdir(package) if f.startswith("_core.") and f.endswith(".so")] \
        if os.path.isdir(package) else []
    if "_core" + suffix not in cores:
        raise RuntimeError(
            "softcert build backend: %s has no extension for this Python (%s wants _core%s, found %s); "
            "configure that directory with -DPython3_EXECUTABLE=%s or unset SOFTCERT_BUILD_DIR"
            % (package, sys.executable, suffix, ", ".join(cores) or "none", sys.executable))
    return package, "_core" + suffix


def _metadata(version):
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
            "Summary: Certified gradient flows of softmax-attention models and theorem checks\n"
            "Requires-Python: >=3.9\nRequires-Dist: numpy\n"
            "Provides-Extra: plot\nRequires-Dist: matplotlib; extra == \"plot\"\n"
            "Provides-Extra: frames\nRequires-Dist: pandas; extra == \"frames\"\n" % (NAME, version))


def _wheel_file():
    py, abi, plat = _tag()
    return ("Wheel-Version: 1.0\nGenerator: softcert_build_backend\nRoot-Is-Purelib: false\n"
            "Tag: %s-%s-%s\n" % (py, abi, plat))


def _write_dist_info(directory, version):
    info = os.path.join(directory, "%s-%s.dist-info" % (NAME, version))
    os.makedirs(info, exist_ok=True)
    for name, text in (("METADATA", _metadata(version)), ("WHEEL", _wheel_file())):
        with open(os.path.join(info, name), "w", encoding="utf-8") as f:
            f.write(text)
    return os.path.basename(info)


# PEP 517 hooks -------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_dist_info(metadata_directory, _version())


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    package, core = _build_package()
    files = sorted(f for f in os.listdir(package)
                   if f == core or f == "py.typed" or f.endswith(".py") or f.endswith(".pyi"))
    info = "%s-%s.dist-info" % (NAME, version)
    entries = [("%s/%s" % (NAME, f), open(os.path.join(package, f), "rb").read()) for f in files]
    entries += [(info + "/METADATA", _metadata(version).encode()),
                (info + "/WHEEL", _wheel_file().encode()),
                (info + "/top_level.txt", (NAME + "\n").encode())]
    record = ""
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += "%s,sha256=%s,%d\n" % (name, digest, len(data))
    record += info + "/RECORD,,\n"
    wheel_name = "%s-%s-%s.whl" % (NAME, version, "-".join(_tag()))
    os.makedirs(wheel_directory, exist_ok=True)
    tmp = os.path.join(wheel_directory, wheel_name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
        z.writestr(info + "/RECORD", record)
    os.replace(tmp, os.path.join(wheel_directory, wheel_name))
    _say("wrote %s (%s)" % (wheel_name, ", ".join(files)))
    return wheel_name
