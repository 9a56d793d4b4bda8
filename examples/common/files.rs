//! Reading and writing the small files of the examples (saved games, data files, key and state files): a
//! read with a size cap, so that a wrong file (`/dev/zero`, a large log) is refused instead of filling
//! memory, and a write that never leaves a half-written file in place of a good one, nor replaces what is
//! not a file: a symbolic link is followed to the file it names (which is replaced, the link kept), a FIFO
//! or a character device (`/dev/null`) is written straight through, and a folder, a block device or a
//! socket is refused with an error that says so.

// Each example uses a subset of these helpers.
#![allow(dead_code)]

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest file [`read_text`] reads: 16 MiB, far more than any saved game or data file.
pub const MAX_FILE: usize = 16 << 20;

/// Reads the file at `path` into `buf` (cleared first), refusing a file of more than `limit` bytes: at
/// most `limit + 1` bytes are ever read, whatever the file (`/dev/zero`, a FIFO).
///
/// The bytes go to `buf` as it grows; a caller that gave it a capacity of `limit + 1` bytes beforehand
/// gets them without any reallocation, so no stray copy of a secret is left behind in freed memory.
///
/// # Errors
/// The error of opening or reading the file (`NotFound` for a missing one), or an error of kind
/// [`io::ErrorKind::FileTooLarge`] naming the limit for a file larger than `limit` bytes (`buf` is then
/// cleared).
pub fn read_capped(path: &Path, limit: usize, buf: &mut Vec<u8>) -> io::Result<()> {
    buf.clear();
    let file = File::open(path)?;
    file.take(limit as u64 + 1).read_to_end(buf)?;
    if buf.len() > limit {
        buf.clear();
        return Err(io::Error::new(io::ErrorKind::FileTooLarge, format!("the file is larger than {limit} bytes")));
    }
    Ok(())
}

/// The text of the file at `path`, without a leading UTF-8 byte-order mark.
///
/// # Errors
/// A message (without the path: the caller names the file) when the file cannot be read, is larger than
/// [`MAX_FILE`] bytes (only that much plus one byte is read), or is not UTF-8.
pub fn read_text(path: &Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    read_capped(path, MAX_FILE, &mut bytes).map_err(|e| match e.kind() {
        io::ErrorKind::FileTooLarge => format!("the file is larger than {} MiB, the most read here", MAX_FILE >> 20),
        _ => e.to_string(),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| format!("the file is not UTF-8 text ({e})"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Where a write to a path goes, once its symbolic links are followed: see [`target`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `-`, where an example takes an output path ([`output_target`]): standard output.
    Stdout,
    /// A regular file, or nothing yet (a new file), at this path: written beside it and renamed over it.
    File(PathBuf),
    /// A FIFO or a character device at this path: written straight through, never replaced.
    Stream(PathBuf),
}

/// The most symbolic links followed from one path (Linux's own limit).
pub const MAX_LINKS: usize = 40;

/// Where a write to `path` goes: its symbolic links followed, a chain of them too (a relative link is
/// relative to the folder of the link), to a regular file or to nothing yet (a dangling link: the file is
/// created where it points), or to a FIFO or a character device. The path in the answer has an absolute
/// folder free of links, so that two names of one file give the same target.
///
/// # Errors
/// A folder, a block device, a socket (anything else that is not a file): an error of kind
/// [`io::ErrorKind::IsADirectory`] for a folder, [`io::ErrorKind::InvalidInput`] for the rest, that names
/// what stands there; a new file whose folder does not exist: [`io::ErrorKind::NotFound`], naming the
/// folder; more than [`MAX_LINKS`] links, or an error of the file system on the way.
pub fn target(path: &Path) -> io::Result<Target> {
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let folder = folder_of(&at);
                if !folder.is_dir() {
                    let msg = format!("the folder {} does not exist", folder.display());
                    return Err(io::Error::new(io::ErrorKind::NotFound, msg));
                }
                return Ok(Target::File(canonical(&at)));
            }
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = fs::read_link(&at)?;
            // `join` keeps an absolute link as it is.
            at = folder_of(&at).join(link);
            continue;
        }
        if kind.is_file() {
            return Ok(Target::File(canonical(&at)));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() || kind.is_char_device() {
                return Ok(Target::Stream(canonical(&at)));
            }
        }
        let (what, error_kind) = if kind.is_dir() {
            ("folder", io::ErrorKind::IsADirectory)
        } else {
            (not_a_file(kind), io::ErrorKind::InvalidInput)
        };
        let shown = if at == path { format!("a {what}") } else { format!("a link to {}, a {what}", at.display()) };
        let msg = format!("{shown}, not a file (only a file, a FIFO or a character device is written)");
        return Err(io::Error::new(error_kind, msg));
    }
    let msg = format!("more than {MAX_LINKS} symbolic links from {}", path.display());
    Err(io::Error::new(io::ErrorKind::InvalidInput, msg))
}

/// [`target`] for the output path of an example, where `-` stands for standard output.
///
/// # Errors
/// As [`target`].
pub fn output_target(path: &Path) -> io::Result<Target> {
    if path.as_os_str() == "-" { Ok(Target::Stdout) } else { target(path) }
}

/// How a message names an output path: `standard output` for `-`.
pub fn output_name(path: &Path) -> String {
    if path.as_os_str() == "-" { "standard output".to_string() } else { path.display().to_string() }
}

/// What stands at a path that is neither a file, a folder, a symbolic link, a FIFO nor a character device.
fn not_a_file(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_block_device() {
            return "block device";
        }
        if kind.is_socket() {
            return "socket";
        }
    }
    let _ = kind;
    "special file"
}

/// `path` with its folder made absolute and free of links, `.` and `..`, so that two names of one file
/// compare equal (`path` itself as given when that cannot be done).
fn canonical(path: &Path) -> PathBuf {
    match (fs::canonicalize(folder_of(path)), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

/// The folder of `path` (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `contents` to the output path of an example: standard output for `-`, otherwise as
/// [`write_atomic`].
///
/// # Errors
/// As [`write_atomic`], or the error of writing standard output.
pub fn write_output(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_to(&output_target(path)?, contents, false)
}

/// Writes `contents` to `path` so that a file there holds either its old contents or all of the new ones,
/// never a part; symbolic links are followed first ([`target`]), so a link stays a link and the file it
/// points to gets the new contents (a dangling link: the file is created where it points). The text goes
/// to a new temporary file beside the real file, is flushed to the disk, and the temporary file is then
/// renamed over it (an existing file keeps its permissions). On an error the temporary file is removed
/// and the file is untouched. A FIFO or a character device is written straight through (a FIFO waits for
/// its reader), never replaced; a folder, a block device or a socket is refused.
///
/// # Errors
/// The error of [`target`], or of the step that failed.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_to(&target(path)?, contents, false)
}

/// [`write_atomic`] for a secret: the temporary file, and so the file written, is created readable and
/// writable by its owner only (mode `0o600` on Unix), whatever the permissions of an earlier file. A FIFO
/// or a character device is written straight through.
///
/// # Errors
/// The error of [`target`], or of the step that failed.
pub fn write_secret(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_to(&target(path)?, contents, true)
}

/// Creates a new secret file at `path` (symbolic links followed, [`target`]) readable and writable by its
/// owner only, holding `contents`; never replaces a file (one that appeared meanwhile is an error). A FIFO
/// or a character device is written straight through.
///
/// # Errors
/// The error of [`target`], [`io::ErrorKind::AlreadyExists`] for an existing file, or the error of the
/// write.
pub fn create_secret(path: &Path, contents: &[u8]) -> io::Result<()> {
    match target(path)? {
        Target::File(at) => {
            let mut file = open_new(&at, true)?;
            file.write_all(contents)?;
            file.sync_all()
        }
        target => write_to(&target, contents, true),
    }
}

/// Writes `contents` to a resolved target (see [`write_atomic`]).
fn write_to(target: &Target, contents: &[u8], secret: bool) -> io::Result<()> {
    match target {
        Target::Stdout => {
            let mut out = io::stdout().lock();
            out.write_all(contents)?;
            out.flush()
        }
        Target::Stream(at) => {
            let mut stream = OpenOptions::new().write(true).open(at)?;
            stream.write_all(contents)?;
            stream.flush()
        }
        Target::File(at) => replace_file(at, contents, secret),
    }
}

/// Writes `contents` to a temporary file beside the regular file `path` (or where it is to be) and
/// renames it over `path`.
fn replace_file(path: &Path, contents: &[u8], secret: bool) -> io::Result<()> {
    let name = path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let folder = folder_of(path);
    let (temp, mut file) = create_temp(&folder, &name.to_string_lossy(), secret)?;
    let written = (|| {
        file.write_all(contents)?;
        if !secret {
            if let Ok(old) = fs::metadata(path) {
                file.set_permissions(old.permissions())?;
            }
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
        return written;
    }
    // The rename itself reaches the disk with the folder's entry (best effort: not every system can).
    if let Ok(dir) = File::open(&folder) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// A new file `.NAME.PID.K.tmp` in `folder`, created exclusively (never an existing file), with mode
/// `0o600` if `secret` (on Unix).
fn create_temp(folder: &Path, name: &str, secret: bool) -> io::Result<(PathBuf, File)> {
    let mut k = 0u32;
    loop {
        let temp = folder.join(format!(".{name}.{}.{k}.tmp", std::process::id()));
        match open_new(&temp, secret) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && k < 100 => k += 1,
            Err(e) => return Err(e),
        }
    }
}

/// A new file at `path`, created exclusively (never an existing file, nor through a link), with mode
/// `0o600` if `secret` (on Unix).
fn open_new(path: &Path, secret: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if secret {
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    }
    options.open(path)
}
