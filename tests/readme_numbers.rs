//! Figures the README quotes match the CSV of the script that measured them.

use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

#[test]
fn set_up_times_are_those_of_results_setup_times_csv() {
    let readme = read("README.md");
    let at = readme.find("(`scripts/setup-times.sh`, `results/setup/times.csv`)").expect("the set-up times' source");
    let quote = &readme[at..at + 400];
    let csv = read("results/setup/times.csv");
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let seconds: f64 = cells[1].parse().unwrap();
        assert_eq!(cells[2], "2", "measured on 2 cores, as the README says");
        let shown = format!("{seconds:.0} s");
        assert!(quote.contains(&shown), "README's set-up times lack {shown} ({}): {quote}", cells[0]);
        rows += 1;
    }
    assert_eq!(rows, 4);
}
