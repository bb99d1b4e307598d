"""The worker's allow-list file-system view (standard library only; loaded by ``_child.py`` by
path and run by ``_jail.setup`` inside the new mount namespace, before any student code).

A new root -- an empty tmpfs on the worker's host directory, then ``pivot_root``, and the host's
tree detached -- holding only:

* the Python standard library and the shared libraries its extension modules load, read-only,
  each ``site-packages``/``dist-packages`` inside them covered by an empty read-only tmpfs;
* the allowed packages, read-only, under ``/packages``;
* ``/dev/null``, ``/dev/zero``, ``/dev/random``, ``/dev/urandom`` and ``/etc/ld.so.cache``;
* a fresh read-only ``/proc`` of the worker's PID namespace (left out where the kernel refuses
  it: stricter, not weaker), masked the way container runtimes mask it (runc's ``maskedPaths``):
  every host-global entry -- ``stat``, ``meminfo``, ``loadavg``, ``uptime``, ``cmdline``,
  ``kcore``, ``kallsyms``, ``interrupts``..., all of ``sys/`` (``kernel/random/boot_id``,
  ``fs/file-nr``), ``pressure/``... -- is ``/dev/null`` bound over a file or an empty read-only
  tmpfs over a directory; only the worker's own processes and the per-namespace links (``self``,
  ``thread-self``, ``mounts``, ``net``, ``sysvipc``) stay;
* empty read-only ``/tmp`` and ``/dev/shm``;
* ``/work``: a tmpfs of ``work_mb`` MB and 4096 files holding a copy of the submission, the only
  writable place.

Read-only bind mounts keep the flags the kernel locks in a user namespace (nosuid, nodev,
noexec, atime), so the remount is allowed there too.
"""
import ctypes
import errno
import os

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_NOATIME, MS_NODIRATIME, MS_BIND, MS_REC, MS_PRIVATE, MS_RELATIME = 1024, 2048, 4096, 16384, 1 << 18, 1 << 21
MNT_DETACH = 2
PIVOT_ROOT_NR = {"x86_64": 155, "aarch64": 41}


_ST_TO_MS = ((os.ST_NOEXEC, MS_NOEXEC), (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME),
             (os.ST_RELATIME, MS_RELATIME))


def _bind(st, src, dst, *, devices=False):
    s = src
    try:
        st.mount(s, dst, None, MS_BIND)
    except OSError as e:
        if e.errno != errno.EINVAL:
            raise
        st.mount(s, dst, None, MS_BIND | MS_REC)   # the source holds locked mounts: take them along
    keep = os.statvfs(dst).f_flag
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | (0 if devices else MS_NODEV)
    for stf, msf in _ST_TO_MS:
        if keep & stf:
            flags |= msf
    if devices:
        flags |= MS_NOEXEC
    st.mount(None, dst, None, flags)


def _mkdirs(path):
    os.makedirs(path, mode=0o755, exist_ok=True)


def _touch(path):
    _mkdirs(os.path.dirname(path))
    if not os.path.exists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))


def _copy_tree(src, dst, uid):
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        tdir = dst if rel == "." else os.path.join(dst, rel)
        if rel != ".":
            os.mkdir(tdir, 0o700)
            if uid is not None:
                os.chown(tdir, uid, uid)
        for fn in filenames:
            s, t = os.path.join(dirpath, fn), os.path.join(tdir, fn)
            with open(s, "rb") as fi, open(t, "wb") as fo:
                while True:
                    chunk = fi.read(1 << 20)
                    if not chunk:
                        break
                    fo.write(chunk)
            if uid is not None:
                os.chown(t, uid, uid)


PROC_KEEP = ("self", "thread-self", "mounts", "net", "sysvipc")   # the worker's own, or its namespaces'


def mask_proc(st, proc, null):
    """Cover every host-global entry of the fresh ``proc``: files by ``null`` (``/dev/null`` in
    the new root), directories by an empty read-only tmpfs.  Raises OSError when one cannot be."""
    if not os.path.exists(null):
        raise OSError(errno.ENOENT, "no /dev/null to mask /proc with")
    for name in sorted(os.listdir(proc)):
        path = os.path.join(proc, name)
        if name.isdigit() or name in PROC_KEEP or os.path.islink(path):
            continue
        if os.path.isdir(path):
            st.mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                     "size=4k,nr_inodes=1,mode=0555")
        else:
            st.mount(null, path, None, MS_BIND)


def build(st, inside_id):
    cfg = st.cfg
    new = cfg["root"]
    st.mount(None, "/", None, MS_REC | MS_PRIVATE)
    st.mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=2m,nr_inodes=4096,mode=0755")
    for item in cfg.get("expose", []):
        kind, path = item[0], item[1]
        dst = new + path
        if kind == "link":
            _mkdirs(os.path.dirname(dst))
            if not os.path.lexists(dst):
                os.symlink(item[2], dst)
        elif kind == "bind":
            _mkdirs(dst)
            _bind(st, path, dst)
        elif kind == "file":
            _touch(dst)
            _bind(st, path, dst)
    for path in cfg.get("hide", []):
        dst = new + path
        if os.path.isdir(dst) and not os.path.islink(dst):
            st.mount("tmpfs", dst, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                     "size=4k,nr_inodes=16,mode=0755")
    for src, name in cfg.get("packages", []):
        dst = os.path.join(new, "packages", name)
        if os.path.isdir(src):
            _mkdirs(dst)
        else:
            _touch(dst)
        _bind(st, src, dst)
    for d in cfg.get("devices", []):
        _touch(f"{new}/dev/{d}")
        _bind(st, f"/dev/{d}", f"{new}/dev/{d}", devices=True)
    for d in ("tmp", "dev/shm", "proc"):
        _mkdirs(f"{new}/{d}")
    work = f"{new}/work"
    _mkdirs(work)
    owner = st.uid if st.mode == "root" else inside_id
    if owner is None:
        owner = os.geteuid()
    st.mount("tmpfs", work, "tmpfs", MS_NOSUID | MS_NODEV,
             f"size={int(cfg.get('work_mb', 32))}m,nr_inodes=4096,mode=0700,uid={owner},gid={owner}")
    _copy_tree(cfg["src"], work, owner)
    try:
        st.mount("proc", f"{new}/proc", "proc", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)
        st.proc = True
    except OSError:
        st.proc = False   # stricter, not weaker: the worker then has no /proc at all
    if st.proc:
        try:
            mask_proc(st, f"{new}/proc", f"{new}/dev/null")
        except OSError:
            st.libc.umount2(os.fsencode(f"{new}/proc"), MNT_DETACH)
            st.proc = False   # a /proc that cannot be masked is left out altogether
    os.chdir(new)
    nr = PIVOT_ROOT_NR.get(os.uname().machine)
    if nr is None or st.libc.syscall(nr, b".", b".") != 0:
        raise OSError(ctypes.get_errno(), st.err("pivot_root"))
    if st.libc.umount2(b".", MNT_DETACH) != 0:
        raise OSError(ctypes.get_errno(), st.err("detaching the host's tree"))
    os.chdir("/")
    st.mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    st.view = True
