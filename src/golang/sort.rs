//! Go's `sort.SliceStable`: insertion sort of blocks of 20, then SymMerge (Kim and Kutzner).
//! Ported because Rust's `sort_by` may panic when the comparison is not a total order, and a
//! `less` over floats is not one when a value is NaN: an `Accept` header with `q=nan` is a
//! request anyone can send. This port never panics, whatever `less` answers, and orders such
//! input exactly as the Go code does.

/// Sorts `v` stably by `less`, as `sort.SliceStable(v, less)` does.
pub fn slice_stable<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(v, &less, a, b);
        a = b;
        b += block;
    }
    insertion_sort(v, &less, a, n);
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(v, &less, a, a + block, b);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(v, &less, a, m, n);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(v: &mut [T], less: &impl Fn(&T, &T) -> bool, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Merges the sorted `v[a..m]` and `v[m..b]`; Go's `symMerge` (callers keep `a < m < b`).
fn sym_merge<T>(v: &mut [T], less: &impl Fn(&T, &T) -> bool, a: usize, m: usize, b: usize) {
    if m - a == 1 {
        // Insert v[a] before the first of v[m..b] that is not less than it.
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&v[h], &v[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            v.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        // Insert v[m] before the first of v[a..m] it is less than.
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&v[m], &v[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            v.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&v[p - c], &v[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(v, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(v, less, a, start, mid);
    }
    if mid < end && end < b {
        sym_merge(v, less, mid, end, b);
    }
}

/// Go's `rotate`: `v[a..m]` and `v[m..b]` change places, by block swaps.
fn rotate<T>(v: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(v, m - i, m, j);
            i -= j;
        } else {
            swap_range(v, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(v, m - i, m, i);
}

fn swap_range<T>(v: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        v.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::slice_stable;

    #[test]
    fn sorts_stably_at_every_length_across_block_boundaries() {
        for n in [0, 1, 2, 19, 20, 21, 39, 40, 41, 100, 257] {
            // Keys repeat so stability shows; the index tags each element's original place.
            let mut v: Vec<(u32, usize)> = (0..n).map(|i| ((i as u32 * 7919) % 13, i)).collect();
            let mut want = v.clone();
            want.sort_by_key(|e| e.0);
            slice_stable(&mut v, |a, b| a.0 < b.0);
            assert_eq!(v, want, "n = {n}");
        }
    }

    #[test]
    fn a_comparison_that_is_no_order_does_not_panic() {
        // q values as an Accept header may give them, NaN included, sorted descending.
        let mut v: Vec<f32> = (0..300)
            .map(|i| match i % 4 {
                0 => f32::NAN,
                1 => 0.5,
                2 => 1.0,
                _ => i as f32 / 300.0,
            })
            .collect();
        slice_stable(&mut v, |a, b| a > b);
        assert_eq!(v.len(), 300);
        // Without NaN the result is sorted.
        let mut w: Vec<f32> = (0..300).map(|i| ((i * 37) % 101) as f32).collect();
        slice_stable(&mut w, |a, b| a > b);
        assert!(w.windows(2).all(|p| p[0] >= p[1]));
    }
}
