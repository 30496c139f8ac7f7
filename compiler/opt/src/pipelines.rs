//! Every optimisation pass by name, and the standard pipelines. This is the one file
//! that lists them; `fut dev --list-passes` prints [`all_passes`].

use ir::pass::Pass;

/// Every pass of this crate, in a fixed order.
pub fn all_passes() -> Vec<Pass> {
    vec![
        crate::simplify::PASS,
        crate::simplify::CSE_PASS,
        crate::simplify::DCE_PASS,
        crate::simplify::HOIST_PASS,
        crate::inline::PASS,
        crate::fusion::PASS,
        crate::acc_to_red::PASS,
    ]
}

/// Looks a pass up by name.
pub fn pass_by_name(name: &str) -> Option<Pass> {
    all_passes().into_iter().find(|p| p.name == name)
}

/// The standard optimisation pipeline run on every program after internalisation.
pub fn standard() -> Vec<Pass> {
    vec![
        crate::inline::PASS,
        crate::simplify::PASS,
        crate::fusion::PASS,
        crate::simplify::PASS,
    ]
}
