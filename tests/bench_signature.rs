//! The bench signature, pinned: the node count of `bench` changes only when search or
//! move generation behaviour changes, and such a change must say so (update the number
//! here and quote the new one in the commit message).

use tabuleiro::bench;

/// `echo bench | tabuleiro` and `tabuleiro bench` print this many nodes.
const SIGNATURE: u64 = 1_054_273;

#[test]
fn bench_gives_the_pinned_signature() {
    // No tablebase is built in this test process, as `bench` never uses one.
    let report = bench::run(None, &|_| {});
    assert_eq!(report.nodes, SIGNATURE);
}
