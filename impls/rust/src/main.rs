//! quatcheck process plugin: euclid (Debian librust-euclid-dev), run as `build/rust/qc-euclid-adapter`.
//! euclid-slerp.f32 / euclid-slerp.f64: Rotation3D::<T, _, _>::quaternion(i, j, k, r).slerp(&other, t), the
//! unit-quaternion rotation's slerp, in f32 and f64 as Rust users call it (a release build: the
//! debug_assert!s on normalisation are off, as in users' release builds). euclid's order is (i, j, k, r) =
//! (x, y, z, w). Binary wire, protocol 1 (docs/plugin-protocol.md); no nlerp (its lerp normalises, but it is
//! only slerp's fallback, and not a routine of its own in the docs), no squad.
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

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = stdout.lock();
    let hello = format!("quatcheck-plugin 1\nlibrary euclid {}\nfamily euclid-slerp slerp.f32 slerp.f64\nend\n", VERSION);
    output.write_all(hello.as_bytes()).unwrap();
    output.flush().unwrap();

    let mut head = [0u8; 24];
    let mut body = vec![0u8; MAX * 9 * 8];
    let mut reply = vec![0u8; 24 + MAX * 4 * 8];
    while input.read_exact(&mut head).is_ok() {
        let (magic, seq, family, op, width, n) =
            (u32_at(&head, 0), u32_at(&head, 4), u32_at(&head, 8), head[12], head[13] as usize, u32_at(&head, 16) as usize);
        if magic != 0x3142_4351 || family != 0 || op != 0 || (width != 4 && width != 8) || n == 0 || n > MAX
            || head[14] != 0 || head[15] != 0 || u32_at(&head, 20) != 0 {
            eprintln!("qc-euclid-adapter: malformed request");
            std::process::exit(2);
        }
        let bytes = n * 9 * width;
        if input.read_exact(&mut body[..bytes]).is_err() {
            std::process::exit(2);
        }
        let out = &mut reply[24..24 + n * 4 * width];
        let elapsed = if width == 4 { serve!(f32, 4, body, bytes, out) } else { serve!(f64, 8, body, bytes, out) };
        reply[16..24].copy_from_slice(&(elapsed.as_nanos() as u64).to_le_bytes());
        reply[0..4].copy_from_slice(&0x3152_4351u32.to_le_bytes());
        reply[4..8].copy_from_slice(&seq.to_le_bytes());
        reply[8..12].copy_from_slice(&(n as u32).to_le_bytes());
        reply[12..16].copy_from_slice(&0u32.to_le_bytes());
        output.write_all(&reply[..24 + n * 4 * width]).unwrap();
        output.flush().unwrap();
    }
}
