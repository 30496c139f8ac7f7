//! Every pass of the compiler by name, and the standard pipeline: the one place that
//! lists them (`fut dev --list-passes` prints [`all_passes`]). The optimiser's own
//! passes are listed in `opt::pipelines`; the AD passes live in the `ad` crate, which
//! depends on `opt`, so the complete list is assembled here.

use ir::pass::Pass;

/// Every pass, optimiser passes first, then the AD passes and the multicore
/// backend's layout passes (`flatten::layout`, run after the standard pipeline).
pub fn all_passes() -> Vec<Pass> {
    let mut passes = opt::pipelines::all_passes();
    passes.extend(ad::all_passes());
    passes.extend([flatten::layout::PASS, flatten::layout::PASS_ALWAYS]);
    passes
}

/// Looks a pass up by name.
pub fn pass_by_name(name: &str) -> Option<Pass> {
    all_passes().into_iter().find(|p| p.name == name)
}

/// The pipeline every program runs after internalisation: the optimiser's standard
/// pipeline, with the AD pass (`ad`: forward and reverse mode, expanding `jvp` and
/// `vjp` nodes innermost first, so that a `jvp` of a `vjp` sees the `vjp` expanded)
/// right after inlining, so that it sees the bodies of the functions it
/// differentiates, and the simplifier and fusion clean up the derivative code like
/// any other. `acc_to_red` follows the first simplification after `ad` (which hoists
/// loop-invariant indices out of maps), turning the accumulator updates of reverse
/// mode that are invariant to a map into reductions.
pub fn standard() -> Vec<Pass> {
    let mut passes = opt::pipelines::standard();
    let at = passes
        .iter()
        .position(|p| p.name == "inline")
        .map_or(0, |i| i + 1);
    passes.insert(at, ad::AD_PASS);
    let simplify = passes[at..]
        .iter()
        .position(|p| p.name == "simplify")
        .map_or(passes.len(), |i| at + i + 1);
    passes.insert(simplify, opt::acc_to_red::PASS);
    passes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_is_found_by_name_and_ad_follows_inline() {
        for p in all_passes() {
            assert_eq!(pass_by_name(p.name).map(|q| q.name), Some(p.name));
        }
        let names: Vec<&str> = standard().iter().map(|p| p.name).collect();
        let inline = names.iter().position(|n| *n == "inline").unwrap();
        assert_eq!(names[inline + 1], "ad", "{names:?}");
    }

    #[test]
    fn acc_to_red_follows_the_simplification_after_ad() {
        let names: Vec<&str> = standard().iter().map(|p| p.name).collect();
        let ad = names.iter().position(|n| *n == "ad").unwrap();
        let simplify = ad + names[ad..].iter().position(|n| *n == "simplify").unwrap();
        assert_eq!(names[simplify + 1], "acc_to_red", "{names:?}");
    }
}
