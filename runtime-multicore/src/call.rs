//! Calling an entry point: timing the call, turning a panic of generated
//! code into an error, and checking the results against the declared types.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use values::Value;

use crate::context::Context;
use crate::entry::{EntryPoint, ExtValue};

/// Where the panic hook leaves the location of the last panic, so that the
/// error for it can name the place in the runtime or generated code.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the default panic message (which would interleave with the
/// program's output) by a record of the panic's location, which [`call`]
/// turns into the error it returns.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(place);
    }));
}

/// The text of a panic's payload.
fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs `entry` on `args` (one value per parameter) in the context's
/// thread pool, returning its results (one per declared result) and the
/// time the call took. A run-time error of the program, a panic, or results
/// that do not match the entry's declared types give the message for the
/// user.
pub fn call(
    ctx: &Context,
    entry: &EntryPoint,
    args: Vec<ExtValue>,
) -> Result<(Vec<ExtValue>, Duration), String> {
    let args: Vec<Value> = args
        .into_iter()
        .flat_map(ExtValue::into_components)
        .collect();
    let start = Instant::now();
    // The call runs in the context's pool, so that rayon's parallel iterators
    // in generated code use its threads (`--num-threads`) whether or not the
    // code installs the pool itself.
    let outcome = catch_unwind(AssertUnwindSafe(|| ctx.install(|| (entry.run)(ctx, args))));
    let time = start.elapsed();
    let results = match outcome {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Err(e.message),
        Err(payload) => {
            let place = LAST_PANIC
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .map(|p| format!(" at {p}"))
                .unwrap_or_default();
            return Err(format!(
                "internal error in entry point `{}` (a bug in fut's code generator or runtime): {}{place}",
                entry.name,
                payload_text(&*payload)
            ));
        }
    };
    check_results(entry, &results)?;
    let mut it = results.into_iter();
    let grouped = entry
        .results
        .iter()
        .map(|t| ExtValue::from_components(t, &mut it))
        .collect();
    Ok((grouped, time))
}

/// Checks that an entry returned as many values as it declares, of the
/// declared types.
fn check_results(entry: &EntryPoint, results: &[Value]) -> Result<(), String> {
    let declared = entry.result_components();
    if results.len() != declared.len() {
        return Err(format!(
            "internal error: entry point `{}` returned {} values, but declares {} result components",
            entry.name,
            results.len(),
            declared.len()
        ));
    }
    for (i, (v, t)) in results.iter().zip(&declared).enumerate() {
        if !t.matches(v) {
            return Err(format!(
                "internal error: result component {} of entry point `{}` has type {}, but is declared {t}",
                i + 1,
                entry.name,
                v.value_type().ranked()
            ));
        }
    }
    Ok(())
}
