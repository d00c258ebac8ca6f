//! A launched Chromium's process tree, from `/proc` (Linux): its memory, and ending it.
//!
//! Chromium's browser process starts a zygote, which forks the renderers; the GPU and
//! utility (network, storage) processes are the browser's children. Killing only the browser
//! leaves them running until each notices its parent is gone (up to a second after sightline
//! exits, as they are reparented to init). So at exit the whole tree is listed first, then
//! each process is sent `SIGKILL`, and sightline waits until none of them is alive.
//!
//! A process is named by its pid and its start time (field 22 of `/proc/PID/stat`), so a pid
//! reused by an unrelated process between the listing and the kill is left alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// The browsers this process launched and has not ended yet: root pid, its start time, and
/// the profile directory. Kept for [`end_all_now`], the exit path that cannot wait for an
/// orderly shutdown.
static LIVE: Mutex<Vec<(u32, u64, PathBuf)>> = Mutex::new(Vec::new());

/// Record a launched browser (see [`end_all_now`]).
pub fn register(pid: u32, profile: &Path) {
    if let Some(p) = read_proc(pid) {
        LIVE.lock().push((pid, p.start, profile.to_path_buf()));
    }
}

/// Forget a browser that was ended the orderly way.
pub fn unregister(pid: u32) {
    LIVE.lock().retain(|(p, _, _)| *p != pid);
}

/// For a process about to exit at once (a second Ctrl-C, or a runtime that did not shut
/// down in time): SIGKILL every browser it launched and has not ended, with each one's whole
/// tree, and remove their profiles. Chromium is started with a DevTools port, so it would
/// otherwise outlive sightline, and its profile (in `/dev/shm`) would stay. Synchronous;
/// waits at most 500 ms for the processes to go.
pub fn end_all_now() {
    let live = std::mem::take(&mut *LIVE.lock());
    let mut trees = Vec::new();
    for (pid, start, profile) in &live {
        // A pid reused since (the browser died and was not unregistered) is left alone; its
        // processes naming the profile are still found.
        let root = if read_proc(*pid).is_some_and(|p| p.start == *start) {
            *pid
        } else {
            0
        };
        let t = Tree::list(root, Some(&profile.display().to_string()));
        for p in t.alive() {
            kill(p);
        }
        trees.push(t);
    }
    let end = Instant::now() + Duration::from_millis(500);
    while Instant::now() < end && trees.iter().any(|t| !t.alive().is_empty()) {
        std::thread::sleep(Duration::from_millis(5));
    }
    for (_, _, profile) in &live {
        let _ = std::fs::remove_dir_all(profile);
    }
}

/// One process: pid, parent pid, start time (clock ticks after boot), state letter.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Proc {
    pid: u32,
    ppid: u32,
    start: u64,
    state: char,
}

/// Parse `/proc/PID/stat`. The command name may hold spaces and parentheses: the fields
/// after it follow the last `)`.
fn parse_stat(pid: u32, stat: &str) -> Option<Proc> {
    let (_, rest) = stat.rsplit_once(')')?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    // rest starts at field 3 (state); ppid is field 4, starttime field 22.
    Some(Proc {
        pid,
        state: f.first()?.chars().next()?,
        ppid: f.get(1)?.parse().ok()?,
        start: f.get(19)?.parse().ok()?,
    })
}

fn read_proc(pid: u32) -> Option<Proc> {
    parse_stat(
        pid,
        &std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?,
    )
}

/// Every process in `/proc`.
fn all() -> Vec<Proc> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(read_proc)
        .collect()
}

/// The processes of `procs` that descend from `root`, `root` included when present.
fn tree_of(root: u32, procs: &[Proc]) -> Vec<Proc> {
    let parent: HashMap<u32, u32> = procs.iter().map(|p| (p.pid, p.ppid)).collect();
    procs
        .iter()
        .filter(|p| {
            let mut q = p.pid;
            // Chromium's trees are a few levels deep; the bound guards against a cycle in a
            // listing taken while processes come and go.
            for _ in 0..32 {
                if q == root {
                    return true;
                }
                match parent.get(&q) {
                    Some(&pp) if pp != 0 && pp != q => q = pp,
                    _ => return false,
                }
            }
            false
        })
        .copied()
        .collect()
}

/// Pids of `root` and its live descendants (not zombies), from `/proc`; empty when `root` is
/// not there.
pub fn tree(root: u32) -> Vec<u32> {
    tree_of(root, &all())
        .into_iter()
        .filter(|p| p.state != 'Z')
        .map(|p| p.pid)
        .collect()
}

/// Summed `VmRSS` of a process and its descendants, in bytes; None when the process is not
/// there (or `/proc` is not readable).
pub fn tree_rss(root: u32) -> Option<u64> {
    let procs = all();
    if !procs.iter().any(|p| p.pid == root) {
        return None;
    }
    let mut total = 0u64;
    for p in tree_of(root, &procs) {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", p.pid)) {
            if let Some(kb) = status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse::<u64>().ok())
            {
                total += kb * 1024;
            }
        }
    }
    Some(total)
}

/// A listing of a process tree, to be killed later even after its root is gone (its
/// children are then reparented and no longer found from the root).
#[derive(Debug, Default, Clone)]
pub struct Tree {
    procs: Vec<Proc>,
}

impl Tree {
    /// List `root`'s tree now, with every process whose command line contains `marker`
    /// (and its descendants).
    pub fn list(root: u32, marker: Option<&str>) -> Tree {
        let procs = all();
        let mut t = Tree {
            procs: tree_of(root, &procs),
        };
        if let Some(m) = marker.filter(|m| !m.is_empty()) {
            for p in &procs {
                if t.procs.iter().any(|q| q.pid == p.pid) {
                    continue;
                }
                let named = std::fs::read(format!("/proc/{}/cmdline", p.pid))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(m));
                if named {
                    t.merge(&Tree {
                        procs: tree_of(p.pid, &procs),
                    });
                }
            }
        }
        t
    }

    /// Add the processes of `other` not listed yet.
    pub fn merge(&mut self, other: &Tree) {
        for p in &other.procs {
            if !self
                .procs
                .iter()
                .any(|q| q.pid == p.pid && q.start == p.start)
            {
                self.procs.push(*p);
            }
        }
    }

    /// Processes of the listing still alive (same pid and start time, not a zombie).
    pub fn alive(&self) -> Vec<u32> {
        self.procs
            .iter()
            .filter(|p| read_proc(p.pid).is_some_and(|q| q.start == p.start && q.state != 'Z'))
            .map(|p| p.pid)
            .collect()
    }

    /// Send `SIGKILL` to every process of the listing still alive, without waiting (for a
    /// `Drop`, which cannot).
    pub fn kill_now(&self) {
        for pid in self.alive() {
            kill(pid);
        }
    }

    /// Send `SIGKILL` to every process of the listing still alive, then wait up to `limit`
    /// until none is (a killed process is gone within milliseconds). Returns the pids still
    /// alive after `limit` (normally none).
    pub async fn kill(&self, limit: Duration) -> Vec<u32> {
        let end = Instant::now() + limit;
        for pid in self.alive() {
            kill(pid);
        }
        loop {
            let left = self.alive();
            if left.is_empty() || Instant::now() >= end {
                return left;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

#[cfg(unix)]
fn kill(pid: u32) {
    use rustix::process::{kill_process, Pid, Signal};
    if let Some(p) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = kill_process(p, Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill(_pid: u32) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(pid: u32, ppid: u32) -> Proc {
        Proc {
            pid,
            ppid,
            start: 7,
            state: 'S',
        }
    }

    #[test]
    fn stat_fields_follow_the_last_parenthesis() {
        let s = "4242 (chromium (x) y) S 4200 4242 4200 0 -1 4194560 1 0 0 0 3 1 0 0 20 0 9 0 \
                 123456 1000 100";
        assert_eq!(
            parse_stat(4242, s),
            Some(Proc {
                pid: 4242,
                ppid: 4200,
                start: 123456,
                state: 'S'
            })
        );
        assert_eq!(parse_stat(1, "garbage"), None);
    }

    #[test]
    fn a_tree_is_the_root_and_every_descendant() {
        // 10 -> 11 -> 12 (zygote -> renderer), 10 -> 13, and an unrelated 20 -> 21.
        let procs = [
            p(10, 1),
            p(11, 10),
            p(12, 11),
            p(13, 10),
            p(20, 1),
            p(21, 20),
        ];
        let mut t: Vec<u32> = tree_of(10, &procs).iter().map(|p| p.pid).collect();
        t.sort();
        assert_eq!(t, vec![10, 11, 12, 13]);
        assert!(tree_of(99, &procs).is_empty());
    }

    #[test]
    fn this_process_tree_has_memory() {
        if !std::path::Path::new("/proc/self/status").exists() {
            return; // not Linux: the bound by memory is off there
        }
        let rss = tree_rss(std::process::id()).expect("this process is in /proc");
        assert!(rss > 1 << 20, "{rss}");
        assert!(tree_rss(u32::MAX).is_none());
    }

    #[tokio::test]
    async fn a_killed_tree_is_gone() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return;
        }
        // sh -> sleep: the shell's child is killed with it.
        let mut child = tokio::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30; wait"])
            .spawn()
            .expect("sh");
        let root = child.id().expect("pid");
        let mut t = Tree::default();
        for _ in 0..200 {
            t = Tree::list(root, None);
            if t.alive().len() >= 3 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(t.alive().len(), 3, "{t:?}");
        // The shell stays a zombie until reaped below, which counts as gone.
        let left = t.kill(Duration::from_secs(2)).await;
        let _ = child.wait().await;
        assert!(left.is_empty(), "{left:?}");
        assert!(tree(root).is_empty());
    }
}
