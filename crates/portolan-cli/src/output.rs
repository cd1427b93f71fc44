//! Output files written atomically: a file the CLI writes is either the complete new file or,
//! when anything fails (a full disk, a file-size limit, an error halfway), the file that was
//! there before, never a truncated mix.
//!
//! [`AtomicFile::create`] opens a temporary file in the target's directory at once, so a path
//! that cannot be written is reported before any work is done; the caller writes to it and
//! [`AtomicFile::commit`] flushes, syncs and renames it over the target (a rename within one
//! directory is atomic on the file systems the CLI runs on). Dropped without a commit, the
//! temporary file is removed.
//!
//! Only regular files are replaced that way. A target that exists and is something else — a
//! device such as `/dev/null` or `/dev/stdout`, a named pipe — is written in place (renaming a
//! file over `/dev/null` would replace the device with a file, which is what a first version of
//! this module did to `scen --csv /dev/null`). A symbolic link is followed, so the link stays and
//! the file it points to is replaced.

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written beside its target, renamed over it on [`AtomicFile::commit`] (or, for
/// a target that is not a regular file, written in place).
pub struct AtomicFile {
    target: PathBuf,
    /// `None` when writing in place.
    temporary: Option<PathBuf>,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Opens a new temporary file in `target`'s directory (or the target itself when it exists
    /// and is not a regular file); the error names `target`.
    pub fn create(target: &Path) -> Result<AtomicFile> {
        let context = || format!("cannot write {}", target.display());
        match std::fs::metadata(target) {
            Ok(meta) if !meta.is_file() => {
                let file = File::options()
                    .write(true)
                    .truncate(true)
                    .open(target)
                    .with_context(context)?;
                return Ok(AtomicFile {
                    target: target.to_path_buf(),
                    temporary: None,
                    writer: Some(BufWriter::new(file)),
                });
            }
            // A link to a regular file: replace the file it points to, keep the link.
            Ok(_) if std::fs::symlink_metadata(target).is_ok_and(|m| m.is_symlink()) => {
                let real = std::fs::canonicalize(target).with_context(context)?;
                return AtomicFile::create_beside(&real, target);
            }
            _ => {}
        }
        AtomicFile::create_beside(target, target)
    }

    /// A temporary file beside `target`, to be renamed over it; errors name `shown`.
    fn create_beside(target: &Path, shown: &Path) -> Result<AtomicFile> {
        let context = || format!("cannot write {}", shown.display());
        let name = target
            .file_name()
            .with_context(|| format!("cannot write {}: not a file name", shown.display()))?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // The process id keeps two concurrent runs apart; `create_new` never clobbers a file.
        let mut temporary = dir.join(format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        let mut attempt = 0;
        let file = loop {
            match File::options()
                .write(true)
                .create_new(true)
                .open(&temporary)
            {
                Ok(f) => break f,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1;
                    temporary = dir.join(format!(
                        ".{}.{}.{attempt}.tmp",
                        name.to_string_lossy(),
                        std::process::id()
                    ));
                }
                Err(e) => return Err(e).with_context(context),
            }
        };
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temporary: Some(temporary),
            writer: Some(BufWriter::new(file)),
        })
    }

    /// Where to write the contents.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.writer
            .as_mut()
            .expect("the writer is only taken by commit, which consumes self")
    }

    /// Flushes and syncs the contents and renames them over the target; the error names it.
    pub fn commit(mut self) -> Result<()> {
        let context = || format!("cannot write {}", self.target.display());
        let writer = self.writer.take().expect("commit runs once");
        let file = writer
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(context)?;
        let Some(temporary) = self.temporary.take() else {
            return Ok(()); // written in place
        };
        file.sync_all().with_context(context)?;
        drop(file);
        std::fs::rename(&temporary, &self.target).with_context(context)?;
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.is_some() {
            // Not committed: the target keeps its old contents, the half-written copy goes.
            self.writer = None;
            if let Some(temporary) = &self.temporary {
                let _ = std::fs::remove_file(temporary);
            }
        }
    }
}

/// Writes `contents` to `target` atomically.
pub fn write_atomically(target: &Path, contents: &[u8]) -> Result<()> {
    let mut file = AtomicFile::create(target)?;
    file.writer()
        .write_all(contents)
        .with_context(|| format!("cannot write {}", target.display()))?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("portolan-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn leftovers(d: &Path) -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_committed_file_replaces_the_old_one() {
        let d = dir("commit");
        let target = d.join("out.txt");
        std::fs::write(&target, "old").unwrap();
        write_atomically(&target, b"new contents").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new contents");
        assert!(leftovers(&d).is_empty());
    }

    #[test]
    fn a_failure_before_commit_leaves_the_old_file_and_no_temporary() {
        let d = dir("abort");
        let target = d.join("out.txt");
        std::fs::write(&target, "the good file").unwrap();
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.writer().write_all(b"half of a new").unwrap();
            // An error halfway: the file is dropped without a commit.
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "the good file");
        assert!(leftovers(&d).is_empty(), "{:?}", leftovers(&d));
    }

    /// `scen --csv /dev/null` once replaced the device with a regular file (the rename): a
    /// target that is not a regular file is written in place and stays what it is.
    #[cfg(unix)]
    #[test]
    fn a_device_is_written_in_place_and_stays_a_device() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        if !std::fs::metadata(null).is_ok_and(|m| m.file_type().is_char_device()) {
            return; // no /dev/null device here to check against
        }
        write_atomically(null, b"into the void").unwrap();
        assert!(std::fs::metadata(null)
            .unwrap()
            .file_type()
            .is_char_device());
    }

    /// A symbolic link stays a link; the file it points to gets the new contents.
    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_kept() {
        let d = dir("link");
        let (real, link) = (d.join("real.txt"), d.join("link.txt"));
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert!(leftovers(&d).is_empty());
    }

    #[test]
    fn an_unwritable_target_is_an_error_before_any_work() {
        let d = dir("missing");
        let target = d.join("no-such-dir").join("out.txt");
        let err = AtomicFile::create(&target).err().unwrap();
        assert!(format!("{err:#}").contains("out.txt"), "{err:#}");
    }
}
