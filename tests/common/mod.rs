//! Shared helpers of the root integration tests.

// Each test binary uses a subset of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

/// The path of an example binary, which `cargo test` builds next to the test binaries
/// (`target/<profile>/examples/`).
///
/// A target filter such as `--test NAME` skips building examples; a missing example is then built here, and
/// so is one last written before a `.rs` file of the facade's `src/` or `examples/` or of a crate the
/// examples use, which would otherwise run the code of before the change. It is built as scripts/test.sh
/// tests, with every feature (the examples' required features included); a binary built with other
/// features but no older is taken as it is. Once per example and test process; after a build that
/// cargo found had nothing to do (a change the example does not use), the binary is dated now, so that
/// the next test process does not ask again.
///
/// # Panics
/// When the example cannot be built.
pub fn example(name: &str) -> PathBuf {
    member_example("tesseract-chess", name)
}

/// [`example`] for an example of the workspace member `package` (`tesseract-search`'s `tune`, say):
/// `cargo test --workspace` builds every member's examples into the same folder.
///
/// # Panics
/// When the example cannot be built.
pub fn member_example(package: &str, name: &str) -> PathBuf {
    static READY: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut dir = std::env::current_exe().expect("the test binary's path");
    dir.pop();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir.join("examples").join(name);
    // Held while building, so that the tests of one process do not build the same example at once.
    let mut ready = READY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = format!("{package}/{name}");
    if ready.contains(&key) {
        return path;
    }
    if !path.exists() || is_older_than_the_sources(&path) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.current_dir(env!("CARGO_MANIFEST_DIR")).args([
            "build",
            "--quiet",
            "--all-features",
            "--package",
            package,
            "--example",
            name,
        ]);
        // target/debug is the dev profile; any other folder is named after its profile.
        if let Some(profile) = dir.file_name().and_then(|n| n.to_str()).filter(|&n| n != "debug") {
            build.args(["--profile", profile]);
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success() && path.exists(), "could not build the example {name} of {package}");
        if is_older_than_the_sources(&path) {
            // Read-only: a file being run cannot be opened for writing, and dating it needs no more.
            let _ = std::fs::File::open(&path).and_then(|f| f.set_modified(SystemTime::now()));
        }
    }
    ready.push(key);
    path
}

/// The folders of the crates whose sources the tests' examples are built from, besides the facade: its
/// dependencies, and the members whose examples the tests run (`relay_load`, `tune`, `pgn_shakmaty`).
const EXAMPLE_CRATES: [&str; 10] = [
    "tesseract-board",
    "tesseract-movegen",
    "tesseract-search",
    "tesseract-wire",
    "tesseract-verify",
    "tesseract-tactoe",
    "tesseract-uci",
    "tesseract-tablebase",
    "tesseract-relay",
    "benches",
];

/// Whether the file at `path` was last written before a source an example is built from: a `.rs` file under
/// the `src/` or `examples/` of the facade or of [`EXAMPLE_CRATES`] (tests and benchmarks are not built
/// into examples), symbolic links followed.
fn is_older_than_the_sources(path: &Path) -> bool {
    static NEWEST: OnceLock<Option<SystemTime>> = OnceLock::new();
    let newest = *NEWEST.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let crates = std::iter::once(root.to_path_buf()).chain(EXAMPLE_CRATES.iter().map(|c| root.join(c)));
        crates.flat_map(|c| [c.join("src"), c.join("examples")]).filter_map(|d| newest_rust_file(&d)).max()
    });
    let built = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    matches!((built, newest), (Some(built), Some(newest)) if newest > built)
}

/// The last write of a `.rs` file under `dir`, searched recursively (symbolic links followed).
fn newest_rust_file(dir: &Path) -> Option<SystemTime> {
    let mut newest = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        let time = if meta.is_dir() {
            newest_rust_file(&path)
        } else if path.extension().is_some_and(|e| e == "rs") {
            meta.modified().ok()
        } else {
            None
        };
        newest = newest.max(time);
    }
    newest
}

/// Runs an example with `args`, feeding `stdin`, and waits for it.
pub fn run_example(name: &str, args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    // An example may end before it has read all its input (an argument refused at once, a game over):
    // then the pipe is closed (BrokenPipe), which is no failure here; its output and status are checked.
    if let Err(e) = child.stdin.take().expect("piped stdin").write_all(stdin.as_ref()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("the example finishes")
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// An example run by `sh` after the shell line `setup` (such as `ulimit -v 100000`), with `args`.
pub fn example_under_shell(name: &str, setup: &str, args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command.arg("-c").arg(format!("{setup}; exec \"$0\" \"$@\"")).arg(example(name)).args(args);
    command
}

/// Runs `command`, feeding it `stdin` (from a thread, so a child that stops reading early does no harm),
/// and waits for it at most `limit`.
///
/// # Panics
/// When the child is still running after `limit` (it is killed first), or cannot be started.
pub fn run_within(command: Command, stdin: Vec<u8>, limit: std::time::Duration) -> Output {
    run_within_to(command, Stdio::piped(), stdin, limit)
}

/// Runs an example whose standard output is a pipe that nobody reads (its reading end is closed before
/// the example starts, so its first write fails as after `| head -0`), feeding it `stdin`, for at most a
/// minute; the output's `stdout` is empty.
///
/// # Panics
/// As [`run_within`].
pub fn run_with_closed_stdout(name: &str, args: &[&str], stdin: &[u8]) -> Output {
    run_program_with_closed_stdout(&example(name), args, stdin)
}

/// [`run_with_closed_stdout`] for any program.
///
/// # Panics
/// As [`run_within`].
pub fn run_program_with_closed_stdout(program: &std::path::Path, args: &[&str], stdin: &[u8]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut command = Command::new(program);
    command.args(args);
    run_within_to(command, writer.into(), stdin.to_vec(), std::time::Duration::from_secs(60))
}

/// [`run_within`] with `stdout` as the child's standard output (the output's `stdout` is what came
/// through it when it is [`Stdio::piped`], else empty).
pub fn run_within_to(mut command: Command, stdout: Stdio, stdin: Vec<u8>, limit: std::time::Duration) -> Output {
    use std::io::Read;
    let mut child =
        command.stdin(Stdio::piped()).stdout(stdout).stderr(Stdio::piped()).spawn().expect("the child starts");
    let mut input = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let mut pipe_out = child.stdout.take();
    let mut pipe_err = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(pipe) = pipe_out.as_mut() {
            let _ = pipe.read_to_end(&mut v);
        }
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = pipe_err.read_to_end(&mut v);
        v
    });
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let stdout = out.join().unwrap_or_default();
            panic!(
                "still running after {limit:?}; its output so far:\n{}",
                String::from_utf8_lossy(&stdout[stdout.len().saturating_sub(2000)..])
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = writer.join();
    Output { status, stdout: out.join().expect("stdout reader"), stderr: err.join().expect("stderr reader") }
}

/// The games of `tests/data/automatic-ends.txt`, one per automatic end: (end, start name, moves).
pub fn automatic_ends() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    include_str!("../data/automatic-ends.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            let (end, start) = (words.next().expect("an end"), words.next().expect("a start"));
            (end, start, words.collect())
        })
        .collect()
}

/// A fresh empty folder for one test's files, under target/ (never a system folder such as /dev).
pub fn scratch(name: &str) -> PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tesseract-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A fresh scratch folder (see [`scratch`]) with two empty folders in it, `here` and `there` (for a link
/// in one to a file in the other): the three paths.
pub fn scratch_here_there(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(name);
    let (here, there) = (dir.join("here"), dir.join("there"));
    std::fs::create_dir_all(&here).expect("a scratch folder");
    std::fs::create_dir_all(&there).expect("a scratch folder");
    (dir, here, there)
}

/// Makes a FIFO at `path` (with mkfifo(1): the tests have no libc of their own).
pub fn mkfifo(path: &std::path::Path) {
    assert!(Command::new("mkfifo").arg(path).status().expect("mkfifo runs").success(), "mkfifo {}", path.display());
}

/// A thread that reads a FIFO to its end (see [`read_fifo`]).
pub struct FifoReader {
    path: PathBuf,
    thread: std::thread::JoinHandle<Vec<u8>>,
}

/// Reads the FIFO at `path` to its end on a thread (opening it waits for a writer).
pub fn read_fifo(path: &std::path::Path) -> FifoReader {
    use std::io::Read;
    let path = path.to_path_buf();
    let at = path.clone();
    let thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::fs::File::open(at).expect("the FIFO opens").read_to_end(&mut v).expect("the FIFO reads");
        v
    });
    FifoReader { path, thread }
}

impl FifoReader {
    /// What came through, once the writer is done. Call it after the writer ended: a reader still waiting
    /// for a writer after five seconds is let go (the FIFO opened for writing and closed), so a writer that
    /// never came makes the bytes empty instead of the test hang.
    pub fn contents(self) -> Vec<u8> {
        let started = std::time::Instant::now();
        while !self.thread.is_finished() && started.elapsed() < std::time::Duration::from_secs(5) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        if !self.thread.is_finished() {
            drop(std::fs::OpenOptions::new().write(true).open(&self.path));
        }
        self.thread.join().expect("the FIFO's reader")
    }
}

/// Whether `path` is a symbolic link.
pub fn is_link(path: &std::path::Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The names in `dir`, sorted.
pub fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
