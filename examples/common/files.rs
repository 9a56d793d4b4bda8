//! Reading and writing the small files of the examples (saved games, data files, key and state files): a
//! read with a size cap, so that a wrong file (`/dev/zero`, a large log) is refused instead of filling
//! memory, and a write that never leaves a half-written file in place of a good one.

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

/// Writes `contents` to `path` so that the file holds either its old contents or all of the new ones,
/// never a part: the text goes to a new temporary file in the same folder, is flushed to the disk, and
/// the temporary file is then renamed over `path` (an existing file keeps its permissions). On an error
/// the temporary file is removed and `path` is untouched.
///
/// # Errors
/// The error of the step that failed.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_via_temp(path, contents, false)
}

/// [`write_atomic`] for a secret: the temporary file, and so the file at `path`, is created readable and
/// writable by its owner only (mode `0o600` on Unix), whatever the permissions of an earlier file.
///
/// # Errors
/// The error of the step that failed.
pub fn write_secret(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_via_temp(path, contents, true)
}

fn write_via_temp(path: &Path, contents: &[u8], secret: bool) -> io::Result<()> {
    let name = path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
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
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if secret {
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        }
        match options.open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && k < 100 => k += 1,
            Err(e) => return Err(e),
        }
    }
}
