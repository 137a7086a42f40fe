//! The `mtrain` binary: parse the command line, run it, map errors to exit codes.

fn main() {
    std::process::exit(mexican_train::run_command_line(std::env::args_os()));
}
