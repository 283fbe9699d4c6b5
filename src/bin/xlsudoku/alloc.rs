//! The binary's allocator: mimalloc (docs/design.md, "mimalloc as the
//! binary's allocator"), asked through its plain entry points whenever the
//! alignment a layout needs is one mimalloc gives every such block anyway.
//!
//! The `mimalloc` crate's allocator always takes the aligned entry points,
//! whose zeroed path for blocks over a kilobyte allocates more and clears
//! it all (`vec![0u128; n]`, `vec![0u64; n]`: the ladder's and the rater's
//! bit sets, thousands a grid). A speed device only: the blocks are the
//! same mimalloc blocks, freed by the same `mi_free`.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment of every mimalloc block of at least this size
/// (`MI_MAX_ALIGN_SIZE`, 16 bytes on 64-bit targets, as the system
/// allocator's `MIN_ALIGN`).
const PLAIN_ALIGN: usize = 16;

/// mimalloc, through its plain entry points where they align enough.
pub struct Mimalloc;

/// Whether mimalloc's plain entry points align a block of `layout`: its
/// alignment is at most 16 and at most its size (a block of 8 bytes is
/// only 8-aligned).
#[inline]
fn plain(layout: &Layout) -> bool {
    layout.align() <= PLAIN_ALIGN && layout.align() <= layout.size()
}

// SAFETY: every block comes from mimalloc, aligned as its layout asks
// (plain entry points only where they guarantee it), and is freed or
// resized by mimalloc.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(&layout) {
            mi::mi_malloc(layout.size()).cast()
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(&layout) {
            mi::mi_zalloc(layout.size()).cast()
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        if plain(&new) {
            mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block is aligned as its layout asks, zeroed when asked, and
    /// keeps its bytes when resized (across the plain and aligned paths).
    #[test]
    fn blocks_are_aligned_zeroed_and_kept() {
        let a = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 7, 8, 15, 16, 17, 100, 1024, 1500, 5000, 70_000, 300_000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                unsafe {
                    let p = a.alloc_zeroed(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size} align {align}");
                    assert!((0..size).all(|i| *p.add(i) == 0));
                    for i in 0..size {
                        *p.add(i) = (i % 251) as u8;
                    }
                    let bigger = size * 3 + 5;
                    let q = a.realloc(p, layout, bigger);
                    assert_eq!(q as usize % align, 0, "realloc {size} align {align}");
                    assert!((0..size).all(|i| *q.add(i) == (i % 251) as u8));
                    a.dealloc(q, Layout::from_size_align(bigger, align).unwrap());
                    let r = a.alloc(layout);
                    assert_eq!(r as usize % align, 0);
                    a.dealloc(r, layout);
                }
            }
        }
    }
}
