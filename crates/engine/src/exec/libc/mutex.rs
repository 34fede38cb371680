//! POSIX mutexes as one thread sees them, exact to glibc's bytes for the
//! default (normal) kind: all-zero bytes are an unlocked mutex
//! (`PTHREAD_MUTEX_INITIALIZER`, `pthread_mutex_init(m, NULL)`); locking
//! sets `__lock` to 1, `__nusers` to 1 and `__owner` to the thread's id,
//! unlocking zeroes them again. A test runs the function in one thread, so
//! a lock never waits: locking a locked default mutex would deadlock, and
//! the path is left out. Other kinds (attributes) are not modelled.

use super::{returns_int, Args, Model};
use crate::exec::{is_null, unsupported, Exec, Machine};
use crate::memory;
use crate::state::{State, Written};
use crate::value::{cells_to_int, int_cells, ObjIdx, PtrVal, Word};
use testcase::Bound;

/// glibc's `EBUSY`.
const EBUSY: u128 = 16;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum MutexCall {
    Init,
    Lock,
    TryLock,
    Unlock,
    Destroy,
}

impl MutexCall {
    pub(super) fn named(name: &str) -> Option<MutexCall> {
        Some(match name {
            "pthread_mutex_init" => MutexCall::Init,
            "pthread_mutex_lock" => MutexCall::Lock,
            "pthread_mutex_trylock" => MutexCall::TryLock,
            "pthread_mutex_unlock" => MutexCall::Unlock,
            "pthread_mutex_destroy" => MutexCall::Destroy,
            _ => return None,
        })
    }
}

/// Where glibc keeps a mutex's fields (`struct __pthread_mutex_s`).
struct Layout {
    size: u64,
    owner: u64,
    users: u64,
    kind: u64,
}

impl Layout {
    fn of(data_model: ir::DataModel) -> Layout {
        match data_model {
            ir::DataModel::Lp64 => Layout {
                size: 40,
                owner: 8,
                users: 12,
                kind: 16,
            },
            ir::DataModel::Ilp32 => Layout {
                size: 24,
                owner: 8,
                kind: 12,
                users: 16,
            },
        }
    }
}

/// The mutex a call works on: its object and offset, checked in bounds.
struct Mutex {
    obj: ObjIdx,
    ptr: PtrVal,
}

impl Machine<'_, '_> {
    pub(super) fn mutex_call(
        &mut self,
        st: &mut State,
        call: MutexCall,
        args: &Args,
    ) -> Exec<Model> {
        let layout = Layout::of(self.program.data_model);
        let mutex = self.mutex(st, &args.ptr(0)?, &layout)?;
        match call {
            MutexCall::Init => {
                if !matches!(args.values.get(1), Some(v) if is_null(st, v)) {
                    return unsupported("`pthread_mutex_init` with attributes");
                }
                self.set_mutex_word(st, &mutex, 0, layout.size, 0)?;
                returns_int(Word::known(0, 32))
            }
            MutexCall::Lock => {
                self.require_unlocked(st, &mutex, &layout, "pthread_mutex_lock")?;
                self.lock(st, &mutex, &layout)?;
                returns_int(Word::known(0, 32))
            }
            MutexCall::TryLock => {
                // Locked by this path itself: busy.
                let locked = self.mutex_word(st, &mutex, 0, 4)?.eq(Word::known(1, 32));
                if !self.may(st, &locked.not()) {
                    return returns_int(Word::known(EBUSY, 32));
                }
                self.require_unlocked(st, &mutex, &layout, "pthread_mutex_trylock")?;
                self.lock(st, &mutex, &layout)?;
                returns_int(Word::known(0, 32))
            }
            MutexCall::Unlock => {
                let locked = self.mutex_word(st, &mutex, 0, 4)?.eq(Word::known(1, 32));
                if !self.may(st, &locked) {
                    return unsupported("`pthread_mutex_unlock` of a mutex the path did not lock");
                }
                self.assume(st, &locked)?;
                // glibc zeroes the owner and takes the user back.
                self.set_mutex_word(st, &mutex, 0, layout.size, 0)?;
                returns_int(Word::known(0, 32))
            }
            MutexCall::Destroy => {
                self.require_unlocked(st, &mutex, &layout, "pthread_mutex_destroy")?;
                // glibc marks a destroyed mutex with an invalid kind.
                self.set_mutex_word(st, &mutex, layout.kind, 4, u32::MAX.into())?;
                returns_int(Word::known(0, 32))
            }
        }
    }

    fn mutex(&mut self, st: &mut State, ptr: &PtrVal, layout: &Layout) -> Exec<Mutex> {
        let obj = self.deref(st, ptr)?;
        self.check_live(st, obj)?;
        let inside = memory::in_bounds(self.program, st.object(obj), &ptr.offset, layout.size);
        self.bounds_fault(
            st,
            &[obj],
            &inside.not(),
            "a mutex past the end of an object",
        )?;
        self.make_bytes(st, obj, &ptr.offset, layout.size);
        Ok(Mutex {
            obj,
            ptr: ptr.clone(),
        })
    }

    /// Locking or destroying needs an unlocked default mutex: all its
    /// bytes zero. Inputs are chosen so; other paths are left out.
    fn require_unlocked(
        &mut self,
        st: &mut State,
        mutex: &Mutex,
        layout: &Layout,
        name: &str,
    ) -> Exec<()> {
        let whole = self.mutex_word(st, mutex, 0, layout.size)?;
        let unlocked = whole.eq(Word::known(0, whole.get_size()));
        if !self.may(st, &unlocked) {
            return unsupported(format!(
                "`{name}` on a mutex that is locked or not a default one (one thread would wait forever or the kind is not modelled)"
            ));
        }
        // An input mutex another thread holds is possible, not in a test.
        if self.may(st, &unlocked.not()) {
            self.note_cut(st, Bound::OneThread);
        }
        self.assume(st, &unlocked)
    }

    fn lock(&mut self, st: &mut State, mutex: &Mutex, layout: &Layout) -> Exec<()> {
        self.set_mutex_word(st, mutex, 0, 4, 1)?;
        self.set_mutex_word(st, mutex, layout.users, 4, 1)?;
        // The thread's id differs in the test's run: no check reads it.
        let at = self.mutex_offset(st, mutex, layout.owner)?;
        let object = st.object_mut(mutex.obj);
        for byte in at..at + 4 {
            if let Some(w) = object.written.get_mut(byte as usize) {
                *w = Written::Unseen;
            }
        }
        Ok(())
    }

    fn mutex_word(&self, st: &State, mutex: &Mutex, at: u64, bytes: u64) -> Exec<Word> {
        let off = mutex.ptr.offset.bvadd(Word::known(at.into(), 64));
        Ok(cells_to_int(&memory::read(
            st.object(mutex.obj),
            &off,
            bytes,
        )?)?)
    }

    fn set_mutex_word(
        &mut self,
        st: &mut State,
        mutex: &Mutex,
        at: u64,
        bytes: u64,
        value: u128,
    ) -> Exec<()> {
        let off = mutex.ptr.offset.bvadd(Word::known(at.into(), 64));
        let cells = int_cells(&Word::known(value, (bytes * 8) as u32));
        Ok(memory::write(st.object_mut(mutex.obj), &off, &cells)?)
    }

    /// The byte offset of a field, where the mutex's offset is known.
    fn mutex_offset(&self, st: &State, mutex: &Mutex, at: u64) -> Exec<u64> {
        match memory::concrete_offset(&st.with_fixed(&mutex.ptr.offset)) {
            Some(start) => Ok(start + at),
            None => unsupported("a mutex at a symbolic offset"),
        }
    }
}
