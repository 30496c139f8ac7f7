//! Choosing the device: by a case-insensitive substring of its name (or
//! of `PLATFORM: NAME`), else the first GPU, else the first device; and
//! the process's one context, created on first use.

use std::sync::{Mutex, OnceLock};

/// The device the process asks for: set by the executable's `--device`,
/// else read from an environment variable (`FUT_OPENCL_DEVICE`,
/// `FUT_CUDA_DEVICE`).
pub struct Choice {
    chosen: Mutex<Option<String>>,
    var: &'static str,
}

impl Choice {
    /// No choice yet; the environment variable `var` gives the default.
    pub const fn new(var: &'static str) -> Choice {
        Choice {
            chosen: Mutex::new(None),
            var,
        }
    }

    /// Sets the choice (`None`: back to the environment's).
    pub fn set(&self, choice: Option<String>) {
        *self.chosen.lock().unwrap_or_else(|e| e.into_inner()) = choice;
    }

    /// The choice, else the environment variable's value when not empty.
    pub fn get(&self) -> Option<String> {
        self.chosen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .or_else(|| std::env::var(self.var).ok().filter(|s| !s.is_empty()))
    }
}

/// A backend's context, created once, on first use; when it cannot be,
/// every use gets the same error.
pub struct ContextCell<C>(OnceLock<Result<C, String>>);

impl<C> ContextCell<C> {
    /// A context not created yet.
    pub const fn new() -> ContextCell<C> {
        ContextCell(OnceLock::new())
    }

    /// The context, made by `create` on first use, or why it cannot be.
    pub fn get(&self, create: impl FnOnce() -> Result<C, String>) -> Result<&C, String> {
        self.0.get_or_init(create).as_ref().map_err(|e| e.clone())
    }

    /// The context when it was created (never creates it).
    pub fn existing(&self) -> Option<&C> {
        self.0.get().and_then(|r| r.as_ref().ok())
    }
}

impl<C> Default for ContextCell<C> {
    fn default() -> Self {
        ContextCell::new()
    }
}

/// One device as listed: where it is and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceDesc {
    /// The platform's name (OpenCL), or the API's (`CUDA`).
    pub platform: String,
    /// The device's name.
    pub name: String,
    /// `GPU`, `CPU`, `accelerator` or `other`.
    pub kind: &'static str,
    /// What the device runs: its OpenCL C version (`OpenCL C 1.2 …`),
    /// or its compute capability (`sm_90`).
    pub c_version: String,
}

impl DeviceDesc {
    /// One line of the listing: `INDEX: PLATFORM: NAME (KIND, VERSION)`.
    pub fn line(&self, index: usize) -> String {
        format!(
            "{index}: {}: {} ({}, {})",
            self.platform, self.name, self.kind, self.c_version
        )
    }
}

/// The device to use among `devices` of the API `api` (`OpenCL`, `CUDA`),
/// by `choice` (a case-insensitive substring of the name or of
/// `PLATFORM: NAME`, or the device's index in the listing; the first
/// match wins), else the first GPU, else the first device. The error
/// lists the devices.
pub fn select(devices: &[DeviceDesc], choice: Option<&str>, api: &str) -> Result<usize, String> {
    if devices.is_empty() {
        return Err(format!("no {api} device found"));
    }
    match choice {
        Some(c) => {
            if let Ok(i) = c.trim().parse::<usize>()
                && i < devices.len()
            {
                return Ok(i);
            }
            let low = c.to_lowercase();
            devices
                .iter()
                .position(|d| {
                    d.name.to_lowercase().contains(&low)
                        || format!("{}: {}", d.platform, d.name)
                            .to_lowercase()
                            .contains(&low)
                })
                .ok_or_else(|| {
                    format!(
                        "no {api} device matches \"{c}\"; the devices are:\n{}",
                        listing(devices)
                    )
                })
        }
        None => Ok(devices.iter().position(|d| d.kind == "GPU").unwrap_or(0)),
    }
}

/// The devices as lines, each indented by two spaces.
pub fn listing(devices: &[DeviceDesc]) -> String {
    devices
        .iter()
        .enumerate()
        .map(|(i, d)| format!("  {}", d.line(i)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(platform: &str, name: &str, kind: &'static str) -> DeviceDesc {
        DeviceDesc {
            platform: platform.into(),
            name: name.into(),
            kind,
            c_version: "OpenCL C 1.2".into(),
        }
    }

    #[test]
    fn a_choice_overrides_the_environment_and_a_context_is_made_once() {
        let c = Choice::new("FUT_SELECT_TEST_UNSET_VARIABLE");
        assert_eq!(c.get(), None);
        c.set(Some("h100".into()));
        assert_eq!(c.get().as_deref(), Some("h100"));
        c.set(None);
        assert_eq!(c.get(), None);
        let cell: ContextCell<u32> = ContextCell::new();
        assert_eq!(cell.existing(), None);
        assert_eq!(cell.get(|| Ok(7)), Ok(&7));
        assert_eq!(cell.get(|| Ok(8)), Ok(&7));
        assert_eq!(cell.existing(), Some(&7));
        let bad: ContextCell<u32> = ContextCell::default();
        assert_eq!(bad.get(|| Err("no device".into())), Err("no device".into()));
        assert_eq!(bad.get(|| Ok(1)), Err("no device".into()));
        assert_eq!(bad.existing(), None);
    }

    #[test]
    fn selection_by_substring_or_index_gpu_first_then_any() {
        let devs = [
            d("Portable Computing Language", "pthread-haswell", "CPU"),
            d("NVIDIA CUDA", "NVIDIA H100", "GPU"),
            d("NVIDIA CUDA", "NVIDIA A100", "GPU"),
        ];
        assert_eq!(select(&devs, None, "OpenCL"), Ok(1));
        assert_eq!(select(&devs[..1], None, "OpenCL"), Ok(0));
        assert_eq!(select(&devs, Some("a100"), "OpenCL"), Ok(2));
        assert_eq!(select(&devs, Some("PTHREAD"), "OpenCL"), Ok(0));
        // The platform's name counts, as "PLATFORM: DEVICE".
        assert_eq!(select(&devs, Some("portable"), "OpenCL"), Ok(0));
        assert_eq!(select(&devs, Some("cuda: nvidia a"), "OpenCL"), Ok(2));
        assert_eq!(select(&devs, Some("nvidia"), "OpenCL"), Ok(1));
        // An index of the listing.
        assert_eq!(select(&devs, Some("2"), "OpenCL"), Ok(2));
        let e = select(&devs, Some("no-such-device"), "OpenCL").unwrap_err();
        assert!(
            e.starts_with("no OpenCL device matches \"no-such-device\""),
            "{e}"
        );
        assert!(
            e.contains("  0: Portable Computing Language: pthread-haswell (CPU, OpenCL C 1.2)"),
            "{e}"
        );
        assert!(e.contains("  2: NVIDIA CUDA: NVIDIA A100 (GPU"), "{e}");
        assert!(
            select(&devs, Some("7"), "CUDA")
                .unwrap_err()
                .starts_with("no CUDA device matches \"7\"")
        );
        assert_eq!(
            select(&[], None, "CUDA"),
            Err("no CUDA device found".into())
        );
    }
}
