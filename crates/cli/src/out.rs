//! Printing and leaving, once for the whole binary.
//!
//! std's `print!` and `println!` panic when stdout is a pipe whose reader has gone
//! (`taku help DiceBot | head`): a backtrace for what is no error at all. The macros
//! below shadow them in every module of this crate (`main.rs` declares this module
//! first; a `macro_rules!` macro in scope wins over the standard prelude's), so no call
//! site has to remember: a closed stdout ends the process quietly with
//! [`BROKEN_PIPE`], after closing the stores it opened ([`finish`]). `eprint!` and
//! `eprintln!` are shadowed too: there is nobody to tell that stderr is gone.

use std::fmt;
use std::io::{self, Write};

/// The exit status when stdout's reader has gone: 128 + SIGPIPE, what a shell reports for
/// a program that the signal ended, so `set -o pipefail` scripts see the same as with
/// `cat`.
pub const BROKEN_PIPE: i32 = 141;

/// `print!`, ending the process quietly if stdout's reader has gone.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!($($arg)*))
    };
}

/// `println!`, ending the process quietly if stdout's reader has gone.
macro_rules! println {
    () => {
        $crate::out::stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!`, ignoring a stderr that cannot be written.
macro_rules! eprint {
    ($($arg:tt)*) => {
        $crate::out::stderr(format_args!($($arg)*))
    };
}

/// `eprintln!`, ignoring a stderr that cannot be written.
macro_rules! eprintln {
    () => {
        $crate::out::stderr(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes to stdout; when that fails, the process ends: quietly with [`BROKEN_PIPE`]
/// if the reader has gone, else with status 1 and the reason on stderr.
pub fn stdout(args: fmt::Arguments<'_>) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        finish(exit_status(&e))
    }
}

/// Buffered stdout for code that writes a lot (`taku roll -`); a failed write or flush
/// ends the process like [`stdout`], so its `io::Result`s are never errors.
pub struct Stdout(io::BufWriter<io::StdoutLock<'static>>);

impl Stdout {
    /// stdout, locked, behind a buffer of `capacity` bytes.
    pub fn buffered(capacity: usize) -> Self {
        Stdout(io::BufWriter::with_capacity(capacity, io::stdout().lock()))
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).or_else(|e| finish(exit_status(&e)))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().or_else(|e| finish(exit_status(&e)))
    }
}

/// Writes to stderr; a failure is ignored, as there is nowhere left to report it.
pub fn stderr(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// The exit status for a failed write to stdout, reporting any failure but a gone reader.
pub fn exit_status(e: &io::Error) -> i32 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        BROKEN_PIPE
    } else {
        eprintln!("taku: cannot write to stdout: {e}");
        1
    }
}

/// Ends the process with `status`, closing every store it opened first (so a SQLite
/// file is complete on its own).
pub fn finish(status: i32) -> ! {
    crate::table::close_stores();
    std::process::exit(status)
}
