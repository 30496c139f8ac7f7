//! Minimal version selection: from the requirements of a manifest, the version of
//! every package the build needs.
//!
//! Each requirement names the *least* version that will do. A package's chosen
//! version is the greatest least-version among the requirements met while walking
//! the requirements from the root: the walk visits the requirements in package
//! path order; a requirement that the version already chosen for its package
//! meets is skipped, and otherwise its version becomes the chosen one and that
//! version's own requirements are walked. Finally, packages that the chosen
//! versions no longer reach from the root are dropped. No newer version than some
//! requirement names is ever picked, so the result is reproducible without a lock
//! file, and the only failures are missing packages, missing versions and commits
//! that differ from those pinned in a manifest.

use std::collections::{BTreeMap, BTreeSet};

use super::PkgError;
use super::manifest::Required;
use super::semver::Version;

/// The chosen version of each package of a build, by package path.
pub type BuildList = BTreeMap<String, Version>;

/// Where the solver learns what a package version requires.
pub trait Registry {
    /// The requirements of `path` at `version`. When `hash` is given, fails
    /// unless that version is the commit `hash`.
    fn requirements(
        &mut self,
        path: &str,
        version: &Version,
        hash: Option<&str>,
    ) -> Result<Vec<Required>, PkgError>;
}

/// Chooses the versions for the root requirements `roots` and everything they
/// require, by minimal version selection.
pub fn solve(registry: &mut dyn Registry, roots: &[Required]) -> Result<BuildList, PkgError> {
    let mut rough: BTreeMap<String, (Version, Vec<String>)> = BTreeMap::new();
    let mut sorted: Vec<&Required> = roots.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    for r in &sorted {
        visit(registry, &mut rough, r, None)?;
    }
    // Keep what the chosen versions reach from the roots.
    let mut list = BuildList::new();
    let mut stack: Vec<&str> = sorted.iter().rev().map(|r| r.path.as_str()).collect();
    let mut seen = BTreeSet::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        if let Some((v, deps)) = rough.get(p) {
            list.insert(p.to_string(), v.clone());
            stack.extend(deps.iter().map(String::as_str));
        }
    }
    Ok(list)
}

fn visit(
    registry: &mut dyn Registry,
    rough: &mut BTreeMap<String, (Version, Vec<String>)>,
    r: &Required,
    by: Option<(&str, &Version)>,
) -> Result<(), PkgError> {
    if let Some((current, _)) = rough.get(&r.path)
        && r.version <= *current
    {
        return Ok(());
    }
    let mut deps = registry
        .requirements(&r.path, &r.version, r.hash.as_deref())
        .map_err(|e| match by {
            Some((p, v)) => e.context(format!("{} {} is required by {p} {v}", r.path, r.version)),
            None => e,
        })?;
    deps.sort_by(|a, b| a.path.cmp(&b.path));
    rough.insert(
        r.path.clone(),
        (
            r.version.clone(),
            deps.iter().map(|d| d.path.clone()).collect(),
        ),
    );
    for d in &deps {
        visit(registry, rough, d, Some((&r.path, &r.version)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A registry from a table: `(path, version) -> [(path, version)]`.
    struct Table(HashMap<(String, Version), Vec<Required>>, Vec<String>);

    fn req(p: &str, v: &str) -> Required {
        Required {
            path: p.into(),
            version: Version::parse(v).expect(v),
            hash: None,
        }
    }

    /// A package version and what it requires.
    type Row<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

    fn table(rows: &[Row]) -> Table {
        Table(
            rows.iter()
                .map(|(p, v, deps)| {
                    (
                        (p.to_string(), Version::parse(v).expect(v)),
                        deps.iter().map(|(p, v)| req(p, v)).collect(),
                    )
                })
                .collect(),
            Vec::new(),
        )
    }

    impl Registry for Table {
        fn requirements(
            &mut self,
            path: &str,
            version: &Version,
            _hash: Option<&str>,
        ) -> Result<Vec<Required>, PkgError> {
            self.1.push(format!("{path} {version}"));
            self.0
                .get(&(path.to_string(), version.clone()))
                .cloned()
                .ok_or_else(|| PkgError::msg(format!("no {path} {version}")))
        }
    }

    fn show(list: &BuildList) -> Vec<String> {
        list.iter().map(|(p, v)| format!("{p} {v}")).collect()
    }

    #[test]
    fn picks_the_greatest_least_version() {
        let mut t = table(&[
            ("a", "1.0.0", &[("c", "1.1.0")]),
            ("b", "1.0.0", &[("c", "1.3.0")]),
            ("c", "1.1.0", &[]),
            ("c", "1.3.0", &[]),
            // Never asked for: MVS does not pick newer than required.
            ("c", "1.4.0", &[]),
        ]);
        let list = solve(&mut t, &[req("b", "1.0.0"), req("a", "1.0.0")]).expect("solves");
        assert_eq!(show(&list), ["a 1.0.0", "b 1.0.0", "c 1.3.0"]);
        // Walked in path order; c 1.1.0 was looked at before b raised it.
        assert_eq!(t.1, ["a 1.0.0", "c 1.1.0", "b 1.0.0", "c 1.3.0"]);
    }

    #[test]
    fn drops_packages_no_longer_reached() {
        let mut t = table(&[
            ("a", "1.0.0", &[("b", "1.0.0")]),
            ("b", "1.0.0", &[("old", "0.1.0")]),
            ("b", "1.2.0", &[]),
            ("old", "0.1.0", &[]),
            ("z", "1.0.0", &[("b", "1.2.0")]),
        ]);
        let list = solve(&mut t, &[req("a", "1.0.0"), req("z", "1.0.0")]).expect("solves");
        assert_eq!(show(&list), ["a 1.0.0", "b 1.2.0", "z 1.0.0"]);
    }

    #[test]
    fn major_versions_are_separate_packages() {
        let mut t = table(&[
            ("a", "1.0.0", &[("lib", "1.5.0")]),
            ("lib", "1.5.0", &[]),
            ("lib@2", "2.0.1", &[]),
        ]);
        let list = solve(&mut t, &[req("a", "1.0.0"), req("lib@2", "2.0.1")]).expect("solves");
        assert_eq!(show(&list), ["a 1.0.0", "lib 1.5.0", "lib@2 2.0.1"]);
    }

    #[test]
    fn cycles_terminate() {
        let mut t = table(&[
            ("a", "1.0.0", &[("b", "1.0.0")]),
            ("b", "1.0.0", &[("a", "1.0.0")]),
        ]);
        let list = solve(&mut t, &[req("a", "1.0.0")]).expect("solves");
        assert_eq!(show(&list), ["a 1.0.0", "b 1.0.0"]);
    }

    #[test]
    fn missing_versions_name_who_required_them() {
        let mut t = table(&[("a", "1.0.0", &[("b", "9.9.9")])]);
        let e = solve(&mut t, &[req("a", "1.0.0")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no b 9.9.9\n  (b 9.9.9 is required by a 1.0.0)"
        );
        assert!(solve(&mut t, &[]).expect("empty").is_empty());
    }
}
