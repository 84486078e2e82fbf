//! quatcheck process plugin: euclid (Debian librust-euclid-dev), run as `build/rust/qc-euclid-adapter`.
//! euclid-slerp.f32 / euclid-slerp.f64: Rotation3D::<T, _, _>::quaternion(i, j, k, r).slerp(&other, t), the
//! unit-quaternion rotation's slerp, in f32 and f64 as Rust users call it (a release build: the
//! debug_assert!s on normalisation are off, as in users' release builds). euclid's order is (i, j, k, r) =
//! (x, y, z, w). Binary wire, protocol 1 (docs/plugin-protocol.md); no nlerp (its lerp normalises, but it is
//! only slerp's fallback, and not a routine of its own in the docs), no squad.
//! fix-rust.f64: slerp.f64 and nlerp.f64 of impls/fixes/qc_slerp.rs, the Rust port of quatcheck's recommended
//! slerp (the fix `quatcheck findings` hands Rust maintainers), included below as a module and called on
//! [f64; 4] in quatcheck's (w, x, y, z) order (the port takes any order). QC_FIX_PLANT=near0 (for
//! tests/fixes.test.sh's negative control only) plants a near-0 defect in this wrapper, not in the port: q0 is
//! returned where 1 - |q0.q1|/(|q0||q1|) < 1e-6.
#[path = "../../fixes/qc_slerp.rs"]
mod qc_slerp;

use euclid::{Rotation3D, UnknownUnit};
use std::io::{Read, Write};
use std::time::Instant;

const MAX: usize = 4096;
const VERSION: &str = env!("QC_EUCLID_VERSION");

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

// One batch in one precision: decode the cases, time the library's calls alone, encode the outputs.
macro_rules! serve {
    ($t:ty, $w:expr, $body:expr, $bytes:expr, $out:expr) => {{
        let v: Vec<$t> = $body[..$bytes].chunks_exact($w).map(|c| {
            let mut a = [0u8; $w];
            a.copy_from_slice(c);
            <$t>::from_le_bytes(a)
        }).collect();
        let t0 = Instant::now();
        let r: Vec<Rotation3D<$t, UnknownUnit, UnknownUnit>> = v.chunks_exact(9).map(|c| {
            let a = Rotation3D::<$t, UnknownUnit, UnknownUnit>::quaternion(c[1], c[2], c[3], c[0]);
            let b = Rotation3D::<$t, UnknownUnit, UnknownUnit>::quaternion(c[5], c[6], c[7], c[4]);
            a.slerp(&b, c[8])
        }).collect();
        let elapsed = t0.elapsed();
        for (i, q) in r.iter().enumerate() {
            for (k, x) in [q.r, q.i, q.j, q.k].iter().enumerate() {
                let at = (4 * i + k) * $w;
                $out[at..at + $w].copy_from_slice(&x.to_le_bytes());
            }
        }
        elapsed
    }};
}

// One batch of fix-rust (f64): op 0 slerp, 1 nlerp, through the planted defect when `plant` is set.
fn serve_fix(op: u8, plant: bool, body: &[u8], n: usize, out: &mut [u8]) -> std::time::Duration {
    let v: Vec<f64> = body[..n * 9 * 8].chunks_exact(8).map(|c| {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        f64::from_le_bytes(a)
    }).collect();
    let f = if op == 0 { qc_slerp::slerp } else { qc_slerp::nlerp };
    let t0 = Instant::now();
    let r: Vec<[f64; 4]> = v.chunks_exact(9).map(|c| {
        let (a, b) = ([c[0], c[1], c[2], c[3]], [c[4], c[5], c[6], c[7]]);
        if plant && planted_near0(&a, &b) { a } else { f(a, b, c[8]) }
    }).collect();
    let elapsed = t0.elapsed();
    for (i, q) in r.iter().enumerate() {
        for (k, x) in q.iter().enumerate() {
            out[(4 * i + k) * 8..(4 * i + k + 1) * 8].copy_from_slice(&x.to_le_bytes());
        }
    }
    elapsed
}

// QC_FIX_PLANT=near0's test: the ends' cosine within 1e-6 of 1.
fn planted_near0(a: &[f64; 4], b: &[f64; 4]) -> bool {
    let dot = |x: &[f64; 4], y: &[f64; 4]| x.iter().zip(y.iter()).map(|(p, q)| p * q).sum::<f64>();
    let n = (dot(a, a) * dot(b, b)).sqrt();
    n > 0.0 && 1.0 - dot(a, b).abs() / n < 1e-6
}

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = stdout.lock();
    let hello = format!(
        "quatcheck-plugin 1\nlibrary euclid {}\nfamily euclid-slerp slerp.f32 slerp.f64\nfamily fix-rust slerp.f64 nlerp.f64\nend\n",
        VERSION
    );
    let plant = std::env::var("QC_FIX_PLANT").map_or(false, |v| v == "near0");
    output.write_all(hello.as_bytes()).unwrap();
    output.flush().unwrap();

    let mut head = [0u8; 24];
    let mut body = vec![0u8; MAX * 9 * 8];
    let mut reply = vec![0u8; 24 + MAX * 4 * 8];
    while input.read_exact(&mut head).is_ok() {
        let (magic, seq, family, op, width, n) =
            (u32_at(&head, 0), u32_at(&head, 4), u32_at(&head, 8), head[12], head[13] as usize, u32_at(&head, 16) as usize);
        let known = match family {
            0 => op == 0 && (width == 4 || width == 8), // euclid-slerp: slerp.f32, slerp.f64
            1 => op <= 1 && width == 8,                 // fix-rust: slerp.f64, nlerp.f64
            _ => false,
        };
        if magic != 0x3142_4351 || !known || n == 0 || n > MAX
            || head[14] != 0 || head[15] != 0 || u32_at(&head, 20) != 0 {
            eprintln!("qc-euclid-adapter: malformed request");
            std::process::exit(2);
        }
        let bytes = n * 9 * width;
        if input.read_exact(&mut body[..bytes]).is_err() {
            std::process::exit(2);
        }
        let out = &mut reply[24..24 + n * 4 * width];
        let elapsed = if family == 1 {
            serve_fix(op, plant, &body, n, out)
        } else if width == 4 {
            serve!(f32, 4, body, bytes, out)
        } else {
            serve!(f64, 8, body, bytes, out)
        };
        reply[16..24].copy_from_slice(&(elapsed.as_nanos() as u64).to_le_bytes());
        reply[0..4].copy_from_slice(&0x3152_4351u32.to_le_bytes());
        reply[4..8].copy_from_slice(&seq.to_le_bytes());
        reply[8..12].copy_from_slice(&(n as u32).to_le_bytes());
        reply[12..16].copy_from_slice(&0u32.to_le_bytes());
        output.write_all(&reply[..24 + n * 4 * width]).unwrap();
        output.flush().unwrap();
    }
}
