"""The worker's seccomp filter: a classic-BPF program built here and installed with prctl.

Standard library only (``ctypes``): it runs inside the sandboxed worker before the student's code
is loaded, so it cannot depend on libseccomp or on anything from site-packages.

The filter returns EPERM for the system calls a perceptron never needs and that widen the kernel
surface or reach outside the sandbox:

* debugging and other processes' memory: ``ptrace``, ``process_vm_readv/writev``, ``kcmp``,
  ``pidfd_getfd``, ``process_madvise``, ``perf_event_open``;
* the file-system tree and namespaces: ``mount``, ``umount2``, ``pivot_root``, ``chroot``, the new
  mount API (``open_tree``, ``move_mount``, ``fsopen``, ``fsconfig``, ``fsmount``, ``fspick``,
  ``mount_setattr``), ``unshare``, ``setns``, and ``clone`` with any CLONE_NEW* flag (``clone3``,
  whose flags sit in memory a filter cannot read, answers ENOSYS so the C library falls back to
  ``clone``);
* running programs: ``execve``, ``execveat`` (the worker is already running; a submission has no
  program to start);
* kernel keyrings, eBPF, modules, kexec, io_uring, userfaultfd, file handles, fanotify, quotas,
  swap, reboot, accounting, the clock, host names, ``syslog``, ``vhangup``, raw I/O ports;
* sockets of any family but AF_UNIX (AF_INET/AF_INET6 as well when the spec allows the network):
  ``socket`` and ``socketpair`` answer EAFNOSUPPORT;
* everything that could carry a bit between two workers through the files they share read-only
  (the standard library, numpy): record and whole-file locks (``flock``; ``fcntl`` F_GETLK,
  F_SETLK, F_SETLKW, F_OFD_*, leases, F_NOTIFY), watches (``inotify_*``, ``fanotify_mark``) and
  every probe or change of page-cache residency (``mincore``, ``readahead``, ``fadvise64``,
  ``cachestat``, ``madvise`` WILLNEED/COLD/PAGEOUT/POPULATE_*; ``preadv2``/``pwritev2``, whose
  RWF_NOWAIT flag tells a cached page from one on disk, answer ENOSYS and the C library falls
  back to ``preadv``);
* the listing calls of the new mount API (``statmount``, ``listmount``) and **every system call
  numbered above** ``CEILING`` (the highest this filter was written for, Linux 6.6's ``futex_waitv``
  and ``set_mempolicy_home_node`` included): ENOSYS, so a call added by a later kernel
  (``open_tree_attr``, ``lsm_*``, ``mseal``, ...) is refused until it has been reviewed here;
* with ``local=False`` (no mount or network namespace: container mode, where the host's UNIX
  sockets -- D-Bus, X11, ``/dev/log`` -- are the host's and an ordinary user's worker runs under
  the grader's own uid): no AF_UNIX socket but a connected stream or seqpacket pair
  (``socketpair``); no change of a file's mode, owner or extended attributes by path (Landlock
  does not govern them: ``chmod``, ``fchmodat``, ``chown``, ``setxattr``, ...); ``prlimit64``,
  ``sched_set*``, ``setpriority``, ``ioprio_set``, ``migrate_pages``, ``move_pages`` on the
  calling process only (0);
* with ``ipc=False`` (no IPC namespace of its own: container mode): System V shared memory,
  semaphores and message queues and POSIX message queues (``shmget``, ``semget``, ``msgget``,
  ``mq_open``, ...), which would otherwise be shared with every other worker;
* with ``fork=False`` (no control group bounds the worker's process tree): ``fork``, ``vfork``
  and ``clone`` without CLONE_THREAD -- the worker stays one process (threads allowed), so its
  RLIMIT_AS and RLIMIT_CPU bound everything it does.

A call from another ABI (x32 on x86_64) answers EPERM; a call from another architecture kills
the process.  Everything else is allowed.
"""
import ctypes
import errno
import os
import platform
import struct

__all__ = ["install", "supported", "DENIED"]

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_BIT = 0x40000000

# name: (x86_64, aarch64); None where the call does not exist on that architecture
_NR = {
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "kcmp": (312, 272), "pidfd_getfd": (438, 438), "process_madvise": (440, 440), "perf_event_open": (298, 241),
    "mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41), "chroot": (161, 51),
    "open_tree": (428, 428), "move_mount": (429, 429), "fsopen": (430, 430), "fsconfig": (431, 431),
    "fsmount": (432, 432), "fspick": (433, 433), "mount_setattr": (442, 442),
    "unshare": (272, 97), "setns": (308, 268),
    "execve": (59, 221), "execveat": (322, 281),
    "keyctl": (250, 219), "add_key": (248, 217), "request_key": (249, 218), "bpf": (321, 280),
    "init_module": (175, 105), "finit_module": (313, 273), "delete_module": (176, 106),
    "kexec_load": (246, 104), "kexec_file_load": (320, 294),
    "io_uring_setup": (425, 425), "io_uring_enter": (426, 426), "io_uring_register": (427, 427),
    "userfaultfd": (323, 282), "open_by_handle_at": (304, 265), "name_to_handle_at": (303, 264),
    "fanotify_init": (300, 262), "quotactl": (179, 60), "quotactl_fd": (443, 443), "lookup_dcookie": (212, 18),
    "swapon": (167, 224), "swapoff": (168, 225), "reboot": (169, 142), "acct": (163, 89),
    "settimeofday": (164, 170), "clock_settime": (227, 112), "clock_adjtime": (305, 266), "adjtimex": (159, 171),
    "sethostname": (170, 161), "setdomainname": (171, 162), "syslog": (103, 116), "vhangup": (153, 58),
    "iopl": (172, None), "ioperm": (173, None), "modify_ldt": (154, None), "uselib": (134, None),
    "_sysctl": (156, None), "nfsservctl": (180, 42),
    # channels through shared read-only files: locks, watches, page-cache residency
    "flock": (73, 32), "inotify_init": (253, None), "inotify_init1": (294, 26), "inotify_add_watch": (254, 27),
    "fanotify_mark": (301, 263), "mincore": (27, 232), "readahead": (187, 213), "fadvise64": (221, 223),
    "remap_file_pages": (216, 234),
}
# answered ENOSYS (the C library then uses an older call)
_NOSYS = {"preadv2": (327, 286), "pwritev2": (328, 287), "clone3": (435, 435)}
CEILING = 450                 # set_mempolicy_home_node: every call numbered above answers ENOSYS
_FCNTL = (72, 25)
F_DENIED = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)   # F_GETLK F_SETLK F_SETLKW F_OFD_* F_SETLEASE F_GETLEASE F_NOTIFY
_MADVISE = (28, 233)
MADV_DENIED = (3, 20, 21, 22, 23)                  # WILLNEED COLD PAGEOUT POPULATE_READ POPULATE_WRITE
_FORK = {"fork": (57, None), "vfork": (58, None)}
# without namespaces (container mode): the attributes of files reached by path, and calls aimed at
# another process of the same uid (an ordinary user's worker runs under the grader's own uid)
_ATTRS = {"chmod": (90, None), "chown": (92, None), "lchown": (94, None), "fchmodat": (268, 53),
          "fchownat": (260, 54), "setxattr": (188, 5), "lsetxattr": (189, 6), "removexattr": (197, 14),
          "lremovexattr": (198, 15)}
_SELF_ONLY = {"prlimit64": ((302, 261), 0), "sched_setparam": ((142, 118), 0), "sched_setscheduler": ((144, 119), 0),
              "sched_setaffinity": ((203, 122), 0), "sched_setattr": ((314, 274), 0), "migrate_pages": ((256, 238), 0),
              "move_pages": ((279, 239), 0), "setpriority": ((141, 140), 1), "ioprio_set": ((251, 30), 1)}
_SYSV = {"shmget": (29, 194), "shmat": (30, 196), "shmctl": (31, 195), "shmdt": (67, 197), "semget": (64, 190),
         "semop": (65, 193), "semctl": (66, 191), "semtimedop": (220, 192), "msgget": (68, 186), "msgsnd": (69, 189),
         "msgrcv": (70, 188), "msgctl": (71, 187), "mq_open": (240, 180), "mq_unlink": (241, 181),
         "mq_timedsend": (242, 182), "mq_timedreceive": (243, 183), "mq_notify": (244, 184),
         "mq_getsetattr": (245, 185)}
CLONE_THREAD = 0x00010000
DENIED = tuple(sorted(_NR))
_SOCKET = {"socket": (41, 198), "socketpair": (53, 199)}
_CLONE = (56, 220)
AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
CLONE_NEW_ANY = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80

# classic BPF
_LD_W_ABS = 0x20      # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15         # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35         # BPF_JMP | BPF_JGE | BPF_K
_JSET_K = 0x45        # BPF_JMP | BPF_JSET | BPF_K
_ALU_AND_K = 0x54     # BPF_ALU | BPF_AND | BPF_K
_RET_K = 0x06         # BPF_RET | BPF_K
RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
_OFF_NR, _OFF_ARCH, _OFF_ARG0 = 0, 4, 16   # struct seccomp_data (arg0: low 32 bits, little endian)
_OFF_ARG1, _OFF_ARG2 = 24, 32

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


def _arch():
    m = platform.machine()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(m, m)


def supported() -> bool:
    return _arch() in AUDIT_ARCH and struct.pack("=I", 1) == struct.pack("<I", 1)


def _arg_in(nr, off, values, ret):
    """``nr`` with argument word ``off`` in ``values`` -> ``ret``; other values allowed; other calls
    go on to the next rule (the accumulator then holds the call number again)."""
    n = len(values)
    body = [(_LD_W_ABS, 0, 0, off)]
    for i, v in enumerate(values):
        body.append((_JEQ_K, n - i, 0, v))         # to the ret below
    body += [(_RET_K, 0, 0, RET_ALLOW), (_RET_K, 0, 0, ret)]
    return [(_JEQ_K, 0, len(body), nr)] + body


def program(network: bool = False, arch: str | None = None, fork: bool = True,
            ipc: bool = True, local: bool = True) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) instructions.  ``fork=False``: one process only (threads
    allowed); ``ipc=False``: no System V or POSIX message-queue IPC; ``local=False``: no AF_UNIX
    socket but a connected pair."""
    arch = arch or _arch()
    col = 0 if arch == "x86_64" else 1
    p = [(_LD_W_ABS, 0, 0, _OFF_ARCH), (_JEQ_K, 1, 0, AUDIT_ARCH[arch]), (_RET_K, 0, 0, RET_KILL_PROCESS),
         (_LD_W_ABS, 0, 0, _OFF_NR)]
    if arch == "x86_64":
        p += [(_JGE_K, 0, 1, X32_BIT), (_RET_K, 0, 0, RET_ERRNO | errno.EPERM)]
    p += [(_JGE_K, 0, 1, CEILING + 1), (_RET_K, 0, 0, RET_ERRNO | errno.ENOSYS)]
    denied = list(DENIED) + ([] if fork else sorted(_FORK)) + ([] if ipc else sorted(_SYSV)) + \
        ([] if local else sorted(_ATTRS))
    for name in denied:
        nr = (_NR.get(name) or _FORK.get(name) or _SYSV.get(name) or _ATTRS[name])[col]
        if nr is not None:
            p += [(_JEQ_K, 0, 1, nr), (_RET_K, 0, 0, RET_ERRNO | errno.EPERM)]
    for name in sorted(_NOSYS):
        p += [(_JEQ_K, 0, 1, _NOSYS[name][col]), (_RET_K, 0, 0, RET_ERRNO | errno.ENOSYS)]
    if not local:               # the calling process (0) only: pid or "who" argument
        for name in sorted(_SELF_ONLY):
            nrs, arg = _SELF_ONLY[name]
            p += [(_JEQ_K, 0, 4, nrs[col]), (_LD_W_ABS, 0, 0, _OFF_ARG0 + 8 * arg), (_JEQ_K, 1, 0, 0),
                  (_RET_K, 0, 0, RET_ERRNO | errno.EPERM), (_RET_K, 0, 0, RET_ALLOW)]
    p += _arg_in(_FCNTL[col], _OFF_ARG1, F_DENIED, RET_ERRNO | errno.EPERM)
    p += [(_LD_W_ABS, 0, 0, _OFF_NR)]
    p += _arg_in(_MADVISE[col], _OFF_ARG2, MADV_DENIED, RET_ERRNO | errno.EPERM)
    p += [(_LD_W_ABS, 0, 0, _OFF_NR)]
    # clone: no CLONE_NEW* flag (arg0 holds the flags on both architectures); without fork, threads only
    tail = [(_RET_K, 0, 0, RET_ALLOW)] if fork else [(_JSET_K, 1, 0, CLONE_THREAD),
                                                     (_RET_K, 0, 0, RET_ERRNO | errno.EPERM), (_RET_K, 0, 0, RET_ALLOW)]
    p += [(_JEQ_K, 0, 3 + len(tail), _CLONE[col]), (_LD_W_ABS, 0, 0, _OFF_ARG0), (_JSET_K, 0, 1, CLONE_NEW_ANY),
          (_RET_K, 0, 0, RET_ERRNO | errno.EPERM)] + tail
    # socket / socketpair: the family is arg0
    inet = [AF_INET, AF_INET6] if network else []
    for name in ("socket", "socketpair"):
        nr = _SOCKET[name][col]
        families = inet + ([AF_UNIX] if local else [])
        body = [(_LD_W_ABS, 0, 0, _OFF_ARG0)]
        for fam in families:
            body.append((_JEQ_K, 0, 0, fam))      # jt patched below: to the allow
        if name == "socketpair" and not local:
            # a connected pair only: AF_UNIX, SOCK_STREAM or SOCK_SEQPACKET (they ignore a destination
            # address on send; a datagram pair would reach any datagram socket of the host, /dev/log)
            body += [(_JEQ_K, 1, 0, AF_UNIX), (_RET_K, 0, 0, RET_ERRNO | errno.EAFNOSUPPORT),
                     (_LD_W_ABS, 0, 0, _OFF_ARG1), (_ALU_AND_K, 0, 0, 0xF), (_JEQ_K, 3, 0, 1), (_JEQ_K, 2, 0, 5),
                     (_RET_K, 0, 0, RET_ERRNO | errno.EPERM)]
        body += [(_RET_K, 0, 0, RET_ERRNO | errno.EAFNOSUPPORT), (_RET_K, 0, 0, RET_ALLOW)]
        n = len(body)
        for i, ins in enumerate(body[:1 + len(families)]):
            if ins[0] == _JEQ_K:
                body[i] = (_JEQ_K, n - 1 - i - 1, 0, ins[3])
        p += [(_JEQ_K, 0, n, nr)] + body
    p.append((_RET_K, 0, 0, RET_ALLOW))
    return p


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def install(libc, network: bool = False, fork: bool = True, ipc: bool = True, local: bool = True) -> None:
    """Set no_new_privs and install the filter on the calling (single-threaded) process.
    Raises OSError naming the step that failed."""
    if not supported():
        raise OSError(errno.ENOSYS, f"seccomp filter not available for architecture {platform.machine()}")
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"prctl(PR_SET_NO_NEW_PRIVS): {os.strerror(e)}")
    prog = program(network, fork=fork, ipc=ipc, local=local)
    arr = (_SockFilter * len(prog))(*[_SockFilter(c, jt, jf, k) for c, jt, jf, k in prog])
    fprog = _SockFprog(len(prog), ctypes.cast(arr, ctypes.POINTER(_SockFilter)))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"prctl(PR_SET_SECCOMP): {os.strerror(e)}")
