//! `fut pkg`: the package manager's command line; the work is in `driver::pkg`.

use clap::{Args, Subcommand};

use driver::pkg::{self, PkgOptions};

/// `fut pkg` arguments.
#[derive(Args, Debug)]
pub struct PkgArgs {
    /// Write each git command run to standard error.
    #[arg(short, long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: PkgCommand,
}

#[derive(Subcommand, Debug)]
enum PkgCommand {
    /// Create a futhark.pkg for a new package, and its folder lib/PKGPATH.
    ///
    /// Only needed to publish a package, not to use packages. Fails if futhark.pkg
    /// exists.
    Init {
        /// The new package's path, such as github.com/user/repo.
        pkgpath: String,
    },
    /// Require a package in futhark.pkg, at least at VERSION.
    ///
    /// Without VERSION, the newest release (tag vX.Y.Z) is required, or the newest
    /// commit (as a commit version 0.0.0-TIMESTAMP+COMMIT) if the package has no
    /// releases. A requirement of the same package is replaced. The version's
    /// commit is recorded (`#COMMIT`). Major versions 2 and up are separate
    /// packages: github.com/user/repo@2 for the tags v2.*.*. Fails, changing
    /// nothing, if the package, the version or something it requires cannot be
    /// had. Run `fut pkg sync` afterwards to fetch the files.
    Add {
        /// The package, such as github.com/diku-dk/sorts.
        pkgpath: String,
        /// The least version wanted, X.Y.Z (or a commit version).
        #[arg(value_name = "VERSION")]
        least: Option<String>,
    },
    /// Remove a package's requirement from futhark.pkg.
    ///
    /// Its files stay in lib/ until `fut pkg sync`.
    Remove {
        /// The package to remove.
        pkgpath: String,
    },
    /// Populate lib/ with the required packages and their dependencies.
    ///
    /// Versions are chosen by minimal version selection: each package gets the
    /// greatest of the least versions required of it. Each package's files (those
    /// under lib/ITS-PATH/ in its repository) are written to lib/PKGPATH/.
    /// Everything else in lib/ is deleted, except lib/P/ when futhark.pkg defines
    /// the package P. Running it again gives the same lib/.
    Sync,
    /// Raise every requirement in futhark.pkg to its package's newest version.
    ///
    /// Major versions stay: github.com/user/repo is not upgraded to @2. Run
    /// `fut pkg sync` afterwards.
    Upgrade,
    /// Check that futhark.pkg can be satisfied and print the chosen versions.
    ///
    /// Every required package and version must exist, at the recorded commits.
    /// When futhark.pkg defines the package P, lib/P must contain .fut files.
    Check,
    /// Rewrite futhark.pkg in the standard layout, keeping comments.
    Fmt,
    /// List the released versions of a package, oldest first.
    Versions {
        /// The package.
        pkgpath: String,
    },
}

/// Runs `fut pkg` in the current folder; returns the exit status.
pub fn run(args: PkgArgs) -> u8 {
    let root = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: cannot read the current folder: {e}");
            return 1;
        }
    };
    let result = PkgOptions::new(root, args.verbose).and_then(|opts| {
        let out = &mut std::io::stdout();
        match &args.command {
            PkgCommand::Init { pkgpath } => pkg::init(&opts, pkgpath, out),
            PkgCommand::Add { pkgpath, least } => pkg::add(&opts, pkgpath, least.as_deref(), out),
            PkgCommand::Remove { pkgpath } => pkg::remove(&opts, pkgpath, out),
            PkgCommand::Sync => pkg::sync(&opts, out),
            PkgCommand::Upgrade => pkg::upgrade(&opts, out),
            PkgCommand::Check => pkg::check(&opts, out),
            PkgCommand::Fmt => pkg::fmt(&opts, out),
            PkgCommand::Versions { pkgpath } => pkg::versions(&opts, pkgpath, out),
        }
    });
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
