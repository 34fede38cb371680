//! The child process a native call runs in, so that the call cannot crash,
//! hang or change cairn: a `fork` of the calling thread that only sets
//! itself up, calls and `_exit`s. The buffers live in memory shared with
//! cairn (`MAP_SHARED`), each followed by an inaccessible page; the child
//! writes its registers and `errno` into a header there. Before the call
//! it takes default signal dispositions, a process group of its own (a
//! Ctrl-C reaches cairn only), limits on CPU time, address space, file
//! size and core dumps, and a seccomp filter that allows only the system
//! calls of memory allocation: any other (a file, the clock, a signal)
//! traps, and the trap handler records which before it exits. cairn waits
//! at most [`TIME_LIMIT`], then kills it.
//!
//! Only x86-64 Linux (the System V calling convention and its system-call
//! numbers), which is what the engine models.

use super::{Address, Call, Failure, Returns};
use std::ffi::{c_int, c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::time::{Duration, Instant};

/// Longest a native call may run.
pub const TIME_LIMIT: Duration = Duration::from_secs(2);
/// Longest string of the library's own storage copied back, NUL included.
pub const STRING_LIMIT: usize = 4096;
/// Address space the child may map beyond what it inherits.
const EXTRA_ADDRESS_SPACE: u64 = 256 << 20;
/// The child's exit statuses of its own.
const EXIT_SYSTEM_CALL: c_int = 97;
const EXIT_SETUP: c_int = 98;

/// What the child writes, at the start of the shared memory.
#[repr(C)]
struct Header {
    finished: u32,
    errno: i32,
    system_call: i64,
    rax: u64,
    rdx: u64,
    xmm0: u64,
    /// Bytes of `string` copied (NUL included); -1 when none was copied,
    /// -2 when no NUL came within the limit.
    string_len: i64,
    string: [u8; STRING_LIMIT],
}

/// What one run in a child gave.
pub struct Run {
    pub rax: u64,
    pub rdx: u64,
    pub xmm0: u64,
    pub errno: i32,
    /// The string a `char *` result outside the buffers points to: `None`
    /// when none was copied, `Some(None)` when it is longer than the limit.
    pub string: Option<Option<Vec<u8>>>,
    /// Each buffer as the call found it and as it left it.
    pub before: Vec<Vec<u8>>,
    pub after: Vec<Vec<u8>>,
    /// Each buffer's address in the child and length.
    places: Vec<(u64, usize)>,
}

impl Run {
    /// Which buffer an address of the child points into (up to one past
    /// its end), else the number.
    pub fn address_of(&self, address: u64) -> Address {
        for (buffer, &(start, len)) in self.places.iter().enumerate() {
            if address >= start && address - start <= len as u64 {
                let offset = (address - start) as usize;
                return Address::Into { buffer, offset };
            }
        }
        Address::Number(address)
    }

    /// The registers a result of `returns` is read from.
    pub fn result_registers(&self, returns: Returns) -> (u64, u64) {
        match returns {
            Returns::Nothing => (0, 0),
            Returns::Integer | Returns::Pointer | Returns::String => (self.rax, 0),
            Returns::TwoIntegers => (self.rax, self.rdx),
            Returns::Float => (self.xmm0, 0),
        }
    }
}

/// Whether `address` lies in the C library's own mappings (libc, libm),
/// which the child shares with cairn: its static storage, not memory the
/// call allocated.
pub fn in_library(address: u64) -> bool {
    // SAFETY: a plain C struct, all zeroes a valid value.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only reads the loader's tables and fills `info`.
    let found = unsafe { libc::dladdr(address as *const c_void, &mut info) };
    if found == 0 || info.dli_fname.is_null() {
        return false;
    }
    // SAFETY: a NUL-terminated name the loader owns while the library is loaded.
    let path = unsafe { CStr::from_ptr(info.dli_fname) }.to_bytes();
    let file = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
    [&b"libc.so.6"[..], b"libm.so.6"].contains(&file)
}

/// Shared memory mapped for one run, unmapped when dropped.
struct Region {
    base: *mut u8,
    size: usize,
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: `base` and `size` are those of our own mapping, and no
        // reference into it outlives the region.
        unsafe {
            libc::munmap(self.base.cast(), self.size);
        }
    }
}

/// Where each buffer lies in a region: its data pages end at a guard page,
/// and its bytes end where the data pages do.
struct Placed {
    data: usize,
    pages: usize,
    start: usize,
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096)
}

/// Runs `call`, the function at `function`, once per filler of its
/// indeterminate bytes, each run on the same addresses.
pub fn execute(function: usize, call: &Call, fillers: &[u8]) -> Result<Vec<Run>, Failure> {
    let page = page_size();
    let header_pages = std::mem::size_of::<Header>().div_ceil(page);
    let mut placed = Vec::with_capacity(call.buffers.len());
    let mut size = header_pages * page;
    for buffer in &call.buffers {
        let pages = buffer.bytes.len().div_ceil(page).max(1);
        let data = size;
        // Its end at the guard page, so reading past it faults; its start
        // then as aligned as its length is (a multiple of 16 at most).
        let start = data + pages * page - buffer.bytes.len();
        placed.push(Placed { data, pages, start });
        size = data + (pages + 1) * page;
    }
    // SAFETY: a fresh anonymous mapping; nothing else refers to it.
    let base = unsafe {
        libc::mmap(
            ptr::null_mut(),
            size,
            libc::PROT_NONE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return Err(Failure::Sandbox("no memory for the buffers"));
    }
    let region = Region {
        base: base.cast(),
        size,
    };
    let places: Vec<(u64, usize)> = call
        .buffers
        .iter()
        .zip(&placed)
        .map(|(b, p)| (region.base as u64 + p.start as u64, b.bytes.len()))
        .collect();
    let address = |a: &Address| match *a {
        Address::Number(n) => n,
        Address::Into { buffer, offset } => places
            .get(buffer)
            .map_or(0, |(start, _)| start + offset as u64),
    };
    let mut integers = [0u64; 6];
    for (register, value) in integers.iter_mut().zip(&call.integers) {
        *register = address(value);
    }
    let mut floats = [0f64; 8];
    for (register, bits) in floats.iter_mut().zip(&call.floats) {
        *register = f64::from_bits(*bits);
    }
    let filter = system_call_filter();
    let plan = Plan {
        function,
        integers,
        floats,
        returns: call.returns,
        header: region.base.cast(),
        region: (region.base as u64, region.base as u64 + size as u64),
        errno: call.errno,
        address_space: address_space().saturating_add(EXTRA_ADDRESS_SPACE),
        filter: libc::sock_fprog {
            len: filter.len() as u16,
            filter: filter.as_ptr().cast_mut(),
        },
    };
    let protect = |offset: usize, len: usize, protection: c_int| {
        // SAFETY: the pages lie inside the region.
        match unsafe { libc::mprotect(region.base.add(offset).cast(), len, protection) } {
            0 => Ok(()),
            _ => Err(Failure::Sandbox("cannot map the buffers")),
        }
    };
    let mut runs = Vec::with_capacity(fillers.len());
    for &filler in fillers {
        let read_write = libc::PROT_READ | libc::PROT_WRITE;
        protect(0, header_pages * page, read_write)?;
        // SAFETY: the header pages are mapped writable, and no child runs.
        unsafe { ptr::write_bytes(region.base, 0, std::mem::size_of::<Header>()) };
        let mut before = Vec::with_capacity(call.buffers.len());
        for (buffer, p) in call.buffers.iter().zip(&placed) {
            protect(p.data, p.pages * page, read_write)?;
            let mut bytes = buffer.bytes.clone();
            for (byte, unset) in bytes.iter_mut().zip(&buffer.unset) {
                if *unset {
                    *byte = filler;
                }
            }
            for (at, to) in &buffer.pointers {
                if let Some(slot) = bytes.get_mut(*at..*at + 8) {
                    slot.copy_from_slice(&address(to).to_le_bytes());
                }
            }
            // SAFETY: the buffer's bytes lie in its data pages, mapped writable.
            unsafe {
                ptr::copy_nonoverlapping(bytes.as_ptr(), region.base.add(p.start), bytes.len());
            }
            if buffer.read_only {
                protect(p.data, p.pages * page, libc::PROT_READ)?;
            }
            before.push(bytes);
        }
        let status = run_child(&plan)?;
        // SAFETY: the child has exited; the header is ours again.
        let header = unsafe { ptr::read_volatile(plan.header) };
        match status {
            Ended::Exited(0) if header.finished == 1 => {}
            Ended::Exited(EXIT_SYSTEM_CALL) => return Err(Failure::SystemCall(header.system_call)),
            Ended::Exited(EXIT_SETUP) => {
                return Err(Failure::Sandbox(
                    "the system-call filter (seccomp) cannot be set up",
                ))
            }
            Ended::Exited(other) => return Err(Failure::Exited(other)),
            Ended::Signal(signal) => return Err(Failure::Signal(signal)),
        }
        let mut after = Vec::with_capacity(call.buffers.len());
        for (buffer, p) in call.buffers.iter().zip(&placed) {
            // SAFETY: the child has exited; the bytes lie in mapped pages.
            let bytes =
                unsafe { std::slice::from_raw_parts(region.base.add(p.start), buffer.bytes.len()) };
            after.push(bytes.to_vec());
        }
        let string = match header.string_len {
            -1 => None,
            n if n < 0 => Some(None),
            n => Some(Some(header.string[..n as usize].to_vec())),
        };
        runs.push(Run {
            rax: header.rax,
            rdx: header.rdx,
            xmm0: header.xmm0,
            errno: header.errno,
            string,
            before,
            after,
            places: places.clone(),
        });
    }
    Ok(runs)
}

/// How the child ended.
enum Ended {
    Exited(c_int),
    Signal(c_int),
}

/// Everything the child needs, made before the fork: the child allocates nothing.
struct Plan {
    function: usize,
    integers: [u64; 6],
    floats: [f64; 8],
    returns: Returns,
    header: *mut Header,
    /// The shared region's addresses: a `char *` result outside it is the
    /// library's own storage.
    region: (u64, u64),
    errno: i32,
    address_space: u64,
    filter: libc::sock_fprog,
}

/// Forks the child that runs `plan`, and waits for it at most [`TIME_LIMIT`].
fn run_child(plan: &Plan) -> Result<Ended, Failure> {
    // SAFETY: the signal sets are initialised by sigfillset; the child
    // only makes async-signal-safe calls, then the call under test, and
    // never returns (`child` ends with `_exit`).
    let pid = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        // Blocked until the child has its own dispositions: a signal for
        // cairn must not run cairn's handlers in the child.
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let pid = libc::fork();
        if pid == 0 {
            child(plan);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, ptr::null_mut());
        pid
    };
    if pid < 0 {
        return Err(Failure::Sandbox("fork failed"));
    }
    let deadline = Instant::now() + TIME_LIMIT;
    let mut pause = Duration::from_micros(20);
    let mut status: c_int = 0;
    loop {
        // SAFETY: waiting for our own child.
        let waited = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if waited == pid {
            break;
        }
        let interrupted = std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR);
        if waited < 0 && !interrupted {
            return Err(Failure::Sandbox("waitpid failed"));
        }
        if Instant::now() >= deadline {
            // SAFETY: our own child, not yet waited for.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            return Err(Failure::TimedOut);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(2));
    }
    if libc::WIFSIGNALED(status) {
        return Ok(Ended::Signal(libc::WTERMSIG(status)));
    }
    Ok(Ended::Exited(libc::WEXITSTATUS(status)))
}

/// Where the trap handler records the system call (the child's header).
static TRAPPED: AtomicPtr<Header> = AtomicPtr::new(ptr::null_mut());

/// SIGSYS from the filter: records the call's number and exits.
extern "C" fn on_system_call(_: c_int, info: *mut libc::siginfo_t, _: *mut c_void) {
    // SAFETY: for SIGSYS the kernel's siginfo holds the call's number as
    // an int at byte 24 (`si_syscall`); the header is mapped.
    unsafe {
        let header = TRAPPED.load(Ordering::Relaxed);
        if !header.is_null() && !info.is_null() {
            let number = ptr::read_unaligned(info.cast::<u8>().add(24).cast::<i32>());
            ptr::write_volatile(ptr::addr_of_mut!((*header).system_call), i64::from(number));
        }
        libc::_exit(EXIT_SYSTEM_CALL);
    }
}

/// The generic entry: six integer and eight vector argument registers;
/// `rax` and `rdx` back (a 16-byte struct of integers is returned there).
type IntegerEntry = unsafe extern "C" fn(
    u64,
    u64,
    u64,
    u64,
    u64,
    u64,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
) -> TwoWords;
/// The same entry, `xmm0` back.
type FloatEntry = unsafe extern "C" fn(
    u64,
    u64,
    u64,
    u64,
    u64,
    u64,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
    f64,
) -> f64;

#[repr(C)]
struct TwoWords {
    rax: u64,
    rdx: u64,
}

/// The child: sets itself apart, calls, records and exits.
///
/// # Safety
/// Called only in the child right after `fork`, with every signal blocked.
unsafe fn child(plan: &Plan) -> ! {
    for signal in 1..libc::SIGRTMAX() {
        libc::signal(signal, libc::SIG_DFL);
    }
    libc::setpgid(0, 0);
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    let limit = |resource, soft: u64, hard: u64| {
        let limit = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        libc::setrlimit(resource, &limit);
    };
    limit(libc::RLIMIT_CORE, 0, 0);
    limit(libc::RLIMIT_FSIZE, 0, 0);
    let seconds = TIME_LIMIT.as_secs();
    limit(libc::RLIMIT_CPU, seconds, seconds + 1);
    limit(libc::RLIMIT_AS, plan.address_space, plan.address_space);
    TRAPPED.store(plan.header, Ordering::Relaxed);
    let mut trap: libc::sigaction = std::mem::zeroed();
    trap.sa_sigaction = on_system_call as *const () as usize;
    trap.sa_flags = libc::SA_SIGINFO;
    libc::sigemptyset(&mut trap.sa_mask);
    libc::sigaction(libc::SIGSYS, &trap, ptr::null_mut());
    let mut none: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut none);
    libc::pthread_sigmask(libc::SIG_SETMASK, &none, ptr::null_mut());
    if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &plan.filter as *const libc::sock_fprog,
        ) != 0
    {
        libc::_exit(EXIT_SETUP);
    }
    let [a, b, c, d, e, f] = plan.integers;
    let [x0, x1, x2, x3, x4, x5, x6, x7] = plan.floats;
    *libc::__errno_location() = plan.errno;
    let (rax, rdx, xmm0) = if plan.returns == Returns::Float {
        let entry: FloatEntry = std::mem::transmute(plan.function);
        let result = entry(a, b, c, d, e, f, x0, x1, x2, x3, x4, x5, x6, x7);
        (0, 0, result.to_bits())
    } else {
        let entry: IntegerEntry = std::mem::transmute(plan.function);
        let result = entry(a, b, c, d, e, f, x0, x1, x2, x3, x4, x5, x6, x7);
        (result.rax, result.rdx, 0)
    };
    let errno = *libc::__errno_location();
    let header = plan.header;
    ptr::write_volatile(ptr::addr_of_mut!((*header).rax), rax);
    ptr::write_volatile(ptr::addr_of_mut!((*header).rdx), rdx);
    ptr::write_volatile(ptr::addr_of_mut!((*header).xmm0), xmm0);
    ptr::write_volatile(ptr::addr_of_mut!((*header).errno), errno);
    let outside = rax != 0 && (rax < plan.region.0 || rax >= plan.region.1);
    let mut copied: i64 = -1;
    if plan.returns == Returns::String && outside {
        copied = -2;
        let string = ptr::addr_of_mut!((*header).string).cast::<u8>();
        for at in 0..STRING_LIMIT {
            let byte = ptr::read_volatile((rax as *const u8).add(at));
            ptr::write_volatile(string.add(at), byte);
            if byte == 0 {
                copied = at as i64 + 1;
                break;
            }
        }
    }
    ptr::write_volatile(ptr::addr_of_mut!((*header).string_len), copied);
    ptr::write_volatile(ptr::addr_of_mut!((*header).finished), 1);
    libc::_exit(0);
}

/// This process's address space in bytes (`/proc/self/statm`).
fn address_space() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .unwrap_or(0);
    pages * page_size() as u64
}

/// The system calls a computing function may make: memory for its
/// allocations (anonymous mappings only), futexes, and ending.
const ALLOWED: &[libc::c_long] = &[
    libc::SYS_brk,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_mprotect,
    libc::SYS_madvise,
    libc::SYS_futex,
    libc::SYS_exit_group,
    libc::SYS_exit,
    libc::SYS_rt_sigreturn,
];

/// The seccomp program: x86-64 calls only; those of [`ALLOWED`], and
/// `mmap` of anonymous memory, pass; any other traps (SIGSYS).
fn system_call_filter() -> Vec<libc::sock_filter> {
    const LOAD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const AT_LEAST: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const AND: u16 = 0x54; // BPF_ALU | BPF_AND | BPF_K
    const RETURN: u16 = 0x06; // BPF_RET | BPF_K
    const ARCH_X86_64: u32 = 0xc000_003e; // AUDIT_ARCH_X86_64
    const X32_CALLS: u32 = 0x4000_0000;
    const NUMBER: u32 = 0; // offsets in `struct seccomp_data`
    const ARCH: u32 = 4;
    const FLAGS: u32 = 16 + 3 * 8; // args[3], low half
    let op = |code, k, jt, jf| libc::sock_filter { code, jt, jf, k };
    let n = ALLOWED.len() as u8;
    // Instruction indices of the three returns.
    let mmap_check = 4 + n;
    let allow = mmap_check + 4;
    let (trap, kill) = (allow + 1, allow + 2);
    // A jump from instruction `at` to `to`.
    let to = |at: u8, target: u8| target - at - 1;
    let mut program = vec![
        op(LOAD, ARCH, 0, 0),
        op(EQUAL, ARCH_X86_64, 0, to(1, kill)),
        op(LOAD, NUMBER, 0, 0),
        op(AT_LEAST, X32_CALLS, to(3, kill), 0),
    ];
    for (i, call) in ALLOWED.iter().enumerate() {
        let at = 4 + i as u8;
        program.push(op(EQUAL, *call as u32, to(at, allow), 0));
    }
    program.extend([
        op(EQUAL, libc::SYS_mmap as u32, 0, to(mmap_check, trap)),
        op(LOAD, FLAGS, 0, 0),
        op(AND, libc::MAP_ANONYMOUS as u32, 0, 0),
        op(
            EQUAL,
            libc::MAP_ANONYMOUS as u32,
            to(mmap_check + 3, allow),
            to(mmap_check + 3, trap),
        ),
        op(RETURN, libc::SECCOMP_RET_ALLOW, 0, 0),
        op(RETURN, libc::SECCOMP_RET_TRAP, 0, 0),
        op(RETURN, libc::SECCOMP_RET_KILL_PROCESS, 0, 0),
    ]);
    program
}

/// The name of an x86-64 system call a native call made, for the reason
/// it is refused.
pub fn system_call_name(number: i64) -> String {
    let name = match number {
        0 => "read",
        1 => "write",
        2 => "open",
        3 => "close",
        4 => "stat",
        5 => "fstat",
        6 => "lstat",
        7 => "poll",
        8 => "lseek",
        9 => "mmap",
        13 => "rt_sigaction",
        14 => "rt_sigprocmask",
        16 => "ioctl",
        21 => "access",
        39 => "getpid",
        41 => "socket",
        42 => "connect",
        56 => "clone",
        57 => "fork",
        59 => "execve",
        62 => "kill",
        63 => "uname",
        72 => "fcntl",
        79 => "getcwd",
        96 => "gettimeofday",
        102 => "getuid",
        186 => "gettid",
        201 => "time",
        228 => "clock_gettime",
        234 => "tgkill",
        257 => "openat",
        262 => "newfstatat",
        318 => "getrandom",
        other => return format!("number {other}"),
    };
    name.to_string()
}
