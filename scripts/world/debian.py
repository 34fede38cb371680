"""Debian 12 source packages through a private apt directory: the Sources
index, the seeded draw over C library packages, download and extraction.

The system's apt sources are never changed: every apt-get call gets
Dir::Etc::SourceList=/dev/null and our own SourceParts and lists."""

import hashlib
import os
import re
import shutil
import subprocess

MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"

# deb and deb-src for bookworm main (build-dep needs both); the updates and
# security suites as deb only, so that build-dep can install a -dev package
# whose runtime library the system already has at a security version.
SOURCES = f"""Types: deb deb-src
URIs: {MIRROR}
Suites: bookworm
Components: main
Signed-By: {KEYRING}

Types: deb
URIs: {MIRROR}
Suites: bookworm-updates
Components: main
Signed-By: {KEYRING}

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: {KEYRING}
"""


class Apt:
    def __init__(self, work):
        self.dir = os.path.join(work, "apt")
        for sub in ("lists/partial", "parts", "archives/partial"):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        parts = os.path.join(self.dir, "parts", "world.sources")
        if not os.path.exists(parts) or open(parts).read() != SOURCES:
            with open(parts, "w") as f:
                f.write(SOURCES)
        self.options = [
            "-o", "Dir::Etc::SourceList=/dev/null",
            "-o", "Dir::Etc::SourceParts=" + os.path.join(self.dir, "parts"),
            "-o", "Dir::State::Lists=" + os.path.join(self.dir, "lists"),
            "-o", "Dir::Cache::Archives=" + os.path.join(self.dir, "archives"),
        ]

    def run(self, args, log, cwd=None, timeout=1800):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        with open(log, "a") as out:
            out.write("$ apt-get " + " ".join(args) + "\n")
            out.flush()
            try:
                return subprocess.run(["apt-get", *self.options, *args], cwd=cwd, env=env,
                                      stdout=out, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                out.write("timed out\n")
                return 124

    def sources_file(self):
        lists = os.path.join(self.dir, "lists")
        for name in os.listdir(lists):
            if name.endswith(("bookworm_main_source_Sources", "bookworm_main_source_Sources.lz4",
                              "bookworm_main_source_Sources.xz", "bookworm_main_source_Sources.gz")):
                return os.path.join(lists, name)
        return None

    def update(self, log):
        """The index once per work directory and sources list (a second run
        reuses it)."""
        stamp = os.path.join(self.dir, "updated")
        want = hashlib.sha256(SOURCES.encode()).hexdigest()
        if self.sources_file() is None or not os.path.exists(stamp) or open(stamp).read() != want:
            if self.run(["update", "-qq"], log) != 0 or self.sources_file() is None:
                raise SystemExit(f"world: apt-get update failed, see {log}")
            with open(stamp, "w") as f:
                f.write(want)

    def sources_text(self):
        # apt keeps lists compressed (lz4 here); apt-helper reads any of them.
        return subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", self.sources_file()],
                              check=True, capture_output=True, text=True).stdout


def paragraphs(text):
    for block in text.split("\n\n"):
        fields, key = {}, None
        for line in block.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += "\n" + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "Package" in fields:
            yield fields


def tarball_bytes(fields):
    """Size of the upstream tarballs (orig and its components; a native
    package's only tarball), signatures and the debian/ tarball left out."""
    total = 0
    for line in fields.get("Files", "").splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        name = parts[2]
        if re.search(r"\.tar\.(gz|xz|bz2|lzma|zst)$", name) and ".debian.tar." not in name:
            total += int(parts[1])
    return total


def candidates(text):
    """C library source packages: those building a lib*-dev binary package of
    section libdevel. {name: {version, bytes, dev}}."""
    found = {}
    for fields in paragraphs(text):
        devs = []
        for line in fields.get("Package-List", "").splitlines():
            parts = line.split()
            if (len(parts) >= 3 and parts[1] == "deb" and parts[2] == "libdevel"
                    and parts[0].startswith("lib") and parts[0].endswith("-dev")):
                devs.append(parts[0])
        if not devs:
            continue
        name = fields["Package"]
        # Keep the highest version when a package is listed twice.
        version = fields.get("Version", "")
        if name in found and not newer(version, found[name]["version"]):
            continue
        found[name] = {"version": version, "bytes": tarball_bytes(fields), "dev": devs}
    return found


def newer(a, b):
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0


def draw_order(names, seed):
    """The draw: sha256 of "seed:package", ascending."""
    return sorted(names, key=lambda n: hashlib.sha256(f"{seed}:{n}".encode()).hexdigest())


def fetch(apt, name, version, directory, log):
    """Downloads the source package into directory/dl and extracts it (Debian's
    patches applied, as it is built) into directory/src. Returns an error or None."""
    dl = os.path.join(directory, "dl")
    src = os.path.join(directory, "src")
    if os.path.exists(os.path.join(directory, ".extracted")):
        return None
    os.makedirs(dl, exist_ok=True)
    if not os.path.exists(os.path.join(directory, ".downloaded")):
        if apt.run(["source", "--download-only", "-qq", f"{name}={version}"], log, cwd=dl,
                   timeout=900) != 0:
            # The reason apt gives (e.g. "404  Not Found" from the mirror).
            errors = [l for l in open(log, errors="replace") if l.startswith("E: Failed to fetch")]
            why = re.sub(r"^E: Failed to fetch \S+/", "", errors[0].strip()) if errors else ""
            why = re.sub(r"\s*\[IP:.*", "", why)
            return f"download failed: {why}"[:200] if why else "download failed"
        open(os.path.join(directory, ".downloaded"), "w").close()
    dsc = [f for f in os.listdir(dl) if f.endswith(".dsc")]
    if not dsc:
        return "download failed (no .dsc)"
    shutil.rmtree(src, ignore_errors=True)
    with open(log, "a") as out:
        rc = subprocess.run(["dpkg-source", "--no-check", "-x", dsc[0], src], cwd=dl,
                            stdout=out, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        return "dpkg-source -x failed"
    open(os.path.join(directory, ".extracted"), "w").close()
    return None
