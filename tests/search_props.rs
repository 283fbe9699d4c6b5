use xlsudoku::grid::Grid;
use xlsudoku::search::{search, search_generic, SearchOptions};
#[test]
fn dbg() {
    let g: Grid =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .unwrap();
    let a = search_generic(&g, &SearchOptions::default()).unwrap();
    println!("generic {} {}", a.solutions.len(), a.guesses);
    let b = search(&g, &SearchOptions::default()).unwrap();
    println!("nine {} {}", b.solutions.len(), b.guesses);
    let e = Grid::parse_line(&".".repeat(81), None).unwrap();
    let b = search(&e, &SearchOptions::default()).unwrap();
    println!("nine empty {} {}", b.solutions.len(), b.guesses);
}
