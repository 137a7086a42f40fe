//! The `mtrain` binary: parse the command line, run it, map errors to exit codes.

fn main() {
    std::process::exit(mexican_train::cli::run(std::env::args_os()));
}
