//! Package versions: the subset of semantic versioning that `futhark.pkg` uses.
//!
//! A version is `MAJOR.MINOR.PATCH`, optionally followed by `-DIGITS` (a
//! pre-release number) and `+ALNUM` (build metadata). Numbers have no leading
//! zeros. Released versions are tagged `vX.Y.Z` in a package's repository.
//!
//! A *commit version* `0.0.0-YYYYMMDDhhmmss+COMMIT` names one commit of a
//! repository that has no release (or not the wanted one): the timestamp orders
//! commit versions of one package by time, and every release is newer than any
//! commit version, since a release is above `0.0.0`.

use std::cmp::Ordering;
use std::fmt;

/// A package version.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// The major version: releases of one package path share it (0 and 1 share
    /// the plain path; major N ≥ 2 uses the path `PKG@N`).
    pub major: u64,
    /// The minor version.
    pub minor: u64,
    /// The patch version.
    pub patch: u64,
    /// The pre-release number, as written (digits only).
    pub pre: Option<String>,
    /// The build metadata, as written (letters and digits only).
    pub build: Option<String>,
}

impl Version {
    /// A release version `major.minor.patch`.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            pre: None,
            build: None,
        }
    }

    /// The commit version `0.0.0-TIMESTAMP+COMMIT`.
    pub fn commit(timestamp: &str, commit: &str) -> Version {
        Version {
            major: 0,
            minor: 0,
            patch: 0,
            pre: Some(timestamp.to_string()),
            build: Some(commit.to_string()),
        }
    }

    /// The commit a commit version names, or `None` for other versions.
    pub fn commit_id(&self) -> Option<&str> {
        match (self.major, self.minor, self.patch, &self.pre, &self.build) {
            (0, 0, 0, Some(_), Some(c)) => Some(c),
            _ => None,
        }
    }

    /// Whether this is `0.0.0` with anything after it: such versions are not
    /// pinned to a commit hash in `futhark.pkg`, since they name one already.
    pub fn is_zero(&self) -> bool {
        (self.major, self.minor, self.patch) == (0, 0, 0)
    }

    /// Parses a version; the error says what is wrong and at which byte offset.
    pub fn parse(s: &str) -> Result<Version, (usize, String)> {
        let (v, used) = Version::parse_prefix(s)?;
        if used != s.len() {
            return Err((
                used,
                format!(
                    "unexpected `{}` after the version",
                    s[used..].chars().next().unwrap_or(' ')
                ),
            ));
        }
        Ok(v)
    }

    /// Parses the longest version at the start of `s`, returning it and the
    /// number of bytes it spans.
    pub fn parse_prefix(s: &str) -> Result<(Version, usize), (usize, String)> {
        let b = s.as_bytes();
        let mut i = 0;
        let mut nums = [0u64; 3];
        for (k, num) in nums.iter_mut().enumerate() {
            if k > 0 {
                if b.get(i) != Some(&b'.') {
                    return Err((
                        i,
                        "expected a version of the form X.Y.Z, such as 1.2.3".to_string(),
                    ));
                }
                i += 1;
            }
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if start == i {
                return Err((
                    start,
                    "expected a version of the form X.Y.Z, such as 1.2.3".to_string(),
                ));
            }
            if i - start > 1 && b[start] == b'0' {
                return Err((start, "a version number has no leading zeros".to_string()));
            }
            *num = s[start..i]
                .parse()
                .map_err(|_| (start, "version number too large".to_string()))?;
        }
        let mut pre = None;
        if b.get(i) == Some(&b'-') {
            let start = i + 1;
            let mut j = start;
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            if j == start {
                return Err((start, "expected digits after `-` in a version".to_string()));
            }
            pre = Some(s[start..j].to_string());
            i = j;
        }
        let mut build = None;
        if b.get(i) == Some(&b'+') {
            let start = i + 1;
            let mut j = start;
            while b.get(j).is_some_and(u8::is_ascii_alphanumeric) {
                j += 1;
            }
            if j == start {
                return Err((
                    start,
                    "expected letters or digits after `+` in a version".to_string(),
                ));
            }
            build = Some(s[start..j].to_string());
            i = j;
        }
        let [major, minor, patch] = nums;
        Ok((
            Version {
                major,
                minor,
                patch,
                pre,
                build,
            },
            i,
        ))
    }

    /// The git tag of a release: `vX.Y.Z`.
    pub fn tag(&self) -> String {
        format!("v{self}")
    }
}

/// Compares two pre-release numbers (digit strings) numerically.
fn cmp_digits(a: &str, b: &str) -> Ordering {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

impl Ord for Version {
    /// Semantic-version order: by major, minor, patch; a version with a
    /// pre-release precedes the same version without one; pre-releases compare as
    /// numbers. Build metadata only breaks ties, so that the order is total.
    fn cmp(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (&self.pre, &other.pre) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) => cmp_digits(a, b),
            })
            .then_with(|| self.build.cmp(&other.build))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if let Some(p) = &self.pre {
            write!(f, "-{p}")?;
        }
        if let Some(b) = &self.build {
            write!(f, "+{b}")?;
        }
        Ok(())
    }
}

/// Splits a package path into the repository path and the major versions its
/// releases may have: `github.com/a/b@3` is the repository `github.com/a/b` with
/// major version 3; a path without `@N` takes major versions 0 and 1.
pub fn major_of_path(path: &str) -> (&str, Vec<u64>) {
    if let Some((repo, n)) = path.rsplit_once('@')
        && !n.is_empty()
        && n.bytes().all(|c| c.is_ascii_digit())
        && let Ok(n) = n.parse()
    {
        return (repo, vec![n]);
    }
    (path, vec![0, 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).expect(s)
    }

    #[test]
    fn parses_and_prints() {
        for s in [
            "0.1.0",
            "1.22.333",
            "0.0.0-20180801102532+b70028521e4dbcc286834b32ce82c1d2721a6209",
            "2.0.0-1",
            "2.0.0+abc",
        ] {
            assert_eq!(v(s).to_string(), s);
        }
        assert_eq!(v("1.2.3"), Version::new(1, 2, 3));
    }

    #[test]
    fn rejects_malformed_versions() {
        let err = |s: &str| Version::parse(s).unwrap_err();
        assert_eq!(err("1.2").0, 3);
        assert_eq!(err("1.x.3").0, 2);
        assert_eq!(
            err("01.2.3"),
            (0, "a version number has no leading zeros".into())
        );
        assert_eq!(err("1.2.3-rc1").0, 6);
        assert_eq!(err("1.2.3+").0, 6);
        assert_eq!(err("v1.2.3").0, 0);
    }

    #[test]
    fn orders_semantically() {
        let mut vs: Vec<Version> = [
            "1.10.0",
            "1.2.0",
            "0.0.0-20200101000000+bbb",
            "1.2.0-9",
            "0.9.9",
            "0.0.0-20180101000000+aaa",
            "1.2.0-10",
            "2.0.0",
            "1.2.1",
        ]
        .iter()
        .map(|s| v(s))
        .collect();
        vs.sort();
        let printed: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
        assert_eq!(
            printed,
            [
                "0.0.0-20180101000000+aaa",
                "0.0.0-20200101000000+bbb",
                "0.9.9",
                "1.2.0-9",
                "1.2.0-10",
                "1.2.0",
                "1.2.1",
                "1.10.0",
                "2.0.0",
            ]
        );
    }

    #[test]
    fn commit_versions() {
        let c = v("0.0.0-20180801102532+b7002852");
        assert_eq!(c.commit_id(), Some("b7002852"));
        assert!(c.is_zero());
        assert_eq!(v("1.0.0+b7").commit_id(), None);
        assert_eq!(v("0.0.0-1").commit_id(), None);
        assert!(c < v("0.0.1"));
    }

    #[test]
    fn major_versions_in_paths() {
        assert_eq!(
            major_of_path("github.com/a/b"),
            ("github.com/a/b", vec![0, 1])
        );
        assert_eq!(
            major_of_path("github.com/a/b@2"),
            ("github.com/a/b", vec![2])
        );
        assert_eq!(
            major_of_path("github.com/a/b@x"),
            ("github.com/a/b@x", vec![0, 1])
        );
    }
}
