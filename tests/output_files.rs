//! The examples' file writer (`examples/common/files.rs`) on what may stand at an output path: a saved file
//! replaces a regular file whole, a symbolic link is followed (a chain of them, a relative one, a dangling
//! one: the file is created where it points) and stays a link, a FIFO or a character device is written
//! straight through and stays what it is, and a folder, a block device, a socket or a loop of links is
//! refused with an error that says what stands there. Every file here is in a scratch folder under
//! target/, never under /dev: a writer that replaced what it should not would only replace a scratch node.

#![cfg(unix)]

mod common;

#[path = "../examples/common/files.rs"]
mod files;

use std::fs;
use std::io;
use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
use std::path::Path;
use std::process::Command;

use common::{is_link, mkfifo, names, read_fifo, scratch, scratch_here_there};
use files::{Target, create_secret, output_target, target, write_atomic, write_secret};

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Makes a device node at `path` (`c` or `b`, major, minor) with mknod(1); `false` where the system does
/// not let this process (not root, or a container without the capability).
fn mknod(path: &Path, kind: &str, major: u32, minor: u32) -> bool {
    let made = Command::new("mknod").arg(path).arg(kind).arg(major.to_string()).arg(minor.to_string()).status();
    let made = made.is_ok_and(|s| s.success());
    if !made {
        eprintln!("note: mknod {} {kind} {major} {minor} not permitted here: that case was skipped", path.display());
    }
    made
}

#[test]
fn a_regular_file_is_replaced_whole_and_keeps_its_permissions() {
    let dir = scratch("regular");
    let file = dir.join("game.json");
    fs::write(&file, "old").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomic(&file, b"new").unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), "new");
    assert_eq!(mode(&file), 0o640);
    // A new file, and nothing else left in the folder.
    write_atomic(&dir.join("other.json"), b"x").unwrap();
    assert_eq!(names(&dir), ["game.json", "other.json"]);
}

#[test]
fn a_link_is_followed_and_stays_a_link() {
    let (_, here, there) = scratch_here_there("link");
    let real = there.join("out.csv");
    fs::write(&real, "old").unwrap();
    let link = here.join("out.csv");
    symlink(&real, &link).unwrap();
    write_atomic(&link, b"new").unwrap();
    assert!(is_link(&link), "the link was replaced by a file");
    assert_eq!(fs::read_link(&link).unwrap(), real);
    assert_eq!(fs::read_to_string(&real).unwrap(), "new", "the file the link names has the new contents");
    // The temporary file was beside the real file, and is gone.
    assert_eq!(names(&here), ["out.csv"]);
    assert_eq!(names(&there), ["out.csv"]);
}

#[test]
fn a_chain_of_links_and_a_relative_link_are_followed() {
    let dir = scratch("chain");
    let (a, b) = (dir.join("a"), dir.join("b"));
    fs::create_dir_all(&a).unwrap();
    fs::create_dir_all(&b).unwrap();
    let real = b.join("real.svg");
    fs::write(&real, "old").unwrap();
    // a/first -> a/second -> ../b/real.svg: the relative link is relative to its own folder (a), not to
    // the working directory of the process.
    symlink("second", a.join("first")).unwrap();
    symlink("../b/real.svg", a.join("second")).unwrap();
    write_atomic(&a.join("first"), b"new").unwrap();
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    assert!(is_link(&a.join("first")) && is_link(&a.join("second")));
    assert_eq!(names(&a), ["first", "second"]);
    assert_eq!(names(&b), ["real.svg"]);
    assert_eq!(target(&a.join("first")).unwrap(), Target::File(fs::canonicalize(&real).unwrap()));
}

#[test]
fn a_dangling_link_creates_the_file_where_it_points() {
    let (_, here, there) = scratch_here_there("dangling");
    let link = here.join("game.json");
    symlink("../there/new.json", &link).unwrap();
    write_atomic(&link, b"created").unwrap();
    assert!(is_link(&link));
    assert_eq!(fs::read_to_string(there.join("new.json")).unwrap(), "created");
    assert_eq!(names(&there), ["new.json"]);
    // A link into a folder that does not exist: refused, naming that folder, and nothing is created.
    let lost = here.join("lost.json");
    symlink("../missing/lost.json", &lost).unwrap();
    let e = write_atomic(&lost, b"x").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
    assert!(e.to_string().starts_with("the folder ") && e.to_string().ends_with("missing does not exist"), "{e}");
    assert_eq!(names(&here), ["game.json", "lost.json"]);
}

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let reader = read_fifo(&fifo);
    write_atomic(&fifo, b"through the pipe").unwrap();
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    assert_eq!(reader.contents(), b"through the pipe");
    // Through a link too, and for a secret.
    let link = dir.join("link");
    symlink("pipe", &link).unwrap();
    let reader = read_fifo(&fifo);
    write_secret(&link, b"secret").unwrap();
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo() && is_link(&link));
    assert_eq!(reader.contents(), b"secret");
    assert_eq!(names(&dir), ["link", "pipe"]);
}

#[test]
fn a_character_device_is_written_through_and_stays_a_device() {
    let dir = scratch("chardev");
    // The null device (1, 3), as a node of its own in the scratch folder.
    let null = dir.join("null");
    if !mknod(&null, "c", 1, 3) {
        return;
    }
    write_atomic(&null, b"gone").unwrap();
    write_secret(&null, b"gone").unwrap();
    assert!(fs::symlink_metadata(&null).unwrap().file_type().is_char_device(), "the device was replaced");
    assert_eq!(names(&dir), ["null"]);
}

#[test]
fn a_folder_a_socket_a_block_device_and_a_loop_are_refused() {
    let dir = scratch("refused");
    let folder = dir.join("folder");
    fs::create_dir_all(&folder).unwrap();
    let e = write_atomic(&folder, b"x").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
    assert!(e.to_string().starts_with("a folder, not a file"), "{e}");
    // Through a link, the message names what the link points to.
    let link = dir.join("to-folder");
    symlink("folder", &link).unwrap();
    let e = write_secret(&link, b"x").unwrap_err();
    assert!(e.to_string().starts_with(&format!("a link to {}, a folder, not a file", folder.display())), "{e}");

    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let e = write_atomic(&socket, b"x").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    assert!(e.to_string().starts_with("a socket, not a file"), "{e}");
    assert!(fs::symlink_metadata(&socket).unwrap().file_type().is_socket());

    let (a, b) = (dir.join("loop-a"), dir.join("loop-b"));
    symlink("loop-b", &a).unwrap();
    symlink("loop-a", &b).unwrap();
    let e = write_atomic(&a, b"x").unwrap_err();
    assert!(e.to_string().starts_with("more than 40 symbolic links"), "{e}");

    // A loop device's node (7, 0), refused before it is opened.
    let block = dir.join("block");
    if mknod(&block, "b", 7, 0) {
        let e = write_atomic(&block, b"x").unwrap_err();
        assert!(e.to_string().starts_with("a block device, not a file"), "{e}");
        assert!(fs::symlink_metadata(&block).unwrap().file_type().is_block_device());
    }
    let mut expected = vec!["folder", "loop-a", "loop-b", "socket", "to-folder"];
    if block.exists() {
        expected.insert(0, "block");
    }
    assert_eq!(names(&dir), expected, "nothing was written or replaced");
}

#[test]
fn secrets_are_the_owners_alone_through_a_link() {
    let dir = scratch("secret");
    let real = dir.join("state");
    fs::write(&real, "old").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o644)).unwrap();
    let link = dir.join("link");
    symlink("state", &link).unwrap();
    write_secret(&link, b"keys").unwrap();
    assert!(is_link(&link));
    assert_eq!(fs::read_to_string(&real).unwrap(), "keys");
    assert_eq!(mode(&real), 0o600);
    // A new secret through a dangling link is created where it points, the owner's alone, and never
    // replaces an existing file.
    let key_link = dir.join("key-link");
    symlink("alice.key", &key_link).unwrap();
    create_secret(&key_link, b"0123").unwrap();
    assert_eq!(fs::read_to_string(dir.join("alice.key")).unwrap(), "0123");
    assert_eq!(mode(&dir.join("alice.key")), 0o600);
    assert!(is_link(&key_link));
    assert_eq!(create_secret(&key_link, b"4567").unwrap_err().kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(fs::read_to_string(dir.join("alice.key")).unwrap(), "0123");
}

#[test]
fn a_dash_is_standard_output_and_names_of_one_file_are_one_target() {
    assert_eq!(output_target(Path::new("-")).unwrap(), Target::Stdout);
    let dir = scratch("names");
    // Where no output path is meant, `-` is a file of that name.
    assert!(matches!(target(&dir.join("-")).unwrap(), Target::File(_)));
    let file = dir.join("a.csv");
    symlink("a.csv", dir.join("b.csv")).unwrap();
    let one = output_target(&file).unwrap();
    assert_eq!(output_target(&dir.join(".").join("a.csv")).unwrap(), one);
    assert_eq!(output_target(&dir.join("b.csv")).unwrap(), one, "a link names the file it points to");
}
