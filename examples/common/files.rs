//! Reading and writing the small files of the examples (saved games): a read with a size cap, so that a
//! wrong file (`/dev/zero`, a large log) is refused instead of filling memory, and a write that never
//! leaves a half-written file in place of a good one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest file [`read_text`] reads: 16 MiB, far more than any saved game.
pub const MAX_FILE: u64 = 16 << 20;

/// The text of the file at `path`, without a leading UTF-8 byte-order mark.
///
/// # Errors
/// A message (without the path: the caller names the file) when the file cannot be read, is larger than
/// [`MAX_FILE`] bytes (only that much plus one byte is read), or is not UTF-8.
pub fn read_text(path: &Path) -> Result<String, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!("the file is larger than {} MiB, the most a saved game may take", MAX_FILE >> 20));
    }
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
    let name = path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (temp, mut file) = create_temp(&folder, &name.to_string_lossy())?;
    let written = (|| {
        file.write_all(contents)?;
        if let Ok(old) = fs::metadata(path) {
            file.set_permissions(old.permissions())?;
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

/// A new file `.NAME.PID.K.tmp` in `folder`, created exclusively (never an existing file).
fn create_temp(folder: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let mut k = 0u32;
    loop {
        let temp = folder.join(format!(".{name}.{}.{k}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && k < 100 => k += 1,
            Err(e) => return Err(e),
        }
    }
}
