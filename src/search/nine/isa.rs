//! Which compiled copy of the search runs: the x86-64 baseline, or the
//! bit-manipulation extensions with or without a fast `pext`, detected at
//! run time.

/// [`Isa`] level: the x86-64 baseline.
///
/// The functions generic over `const ISA: u8` (`root`, `State::solve`,
/// `State::propagate`, `shrink`, `State::cells`…) are safe to call with
/// `ISA == BASELINE` only: above it they run code compiled for, or
/// intrinsics of, the extensions. The search instantiates them above the
/// baseline only below [`search_with`](super::search_with)'s dispatch on an [`Isa`] made by
/// [`Isa::detect`] (debug builds check it at each entry), and tests only
/// after checking the processor.
pub(super) const BASELINE: u8 = 0;
/// [`Isa`] level: `popcnt`, BMI1, BMI2 and `lzcnt` (x86-64-v3's bit
/// manipulation): bits counted in one instruction, `andn`, `blsr`, `tzcnt`,
/// shifts that leave the flags alone.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) const BMI: u8 = 1;
/// [`Isa`] level: [`BMI`], on a processor that runs `pext` in hardware
/// (Intel from Haswell, AMD from Zen 3; earlier AMD processors take
/// dozens of cycles over it), used for the row/box pattern ([`shrink`](super::shrink)).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) const BMI_PEXT: u8 = 2;

/// Proof of which copy of the search the processor can run: only
/// [`Isa::detect`] makes one above [`BASELINE`], after checking the
/// processor, so holding one makes calling code compiled for its level
/// sound. The search is compiled once per level (what it gains: the module
/// docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Isa(u8);

impl Isa {
    /// The highest level the processor runs (detected once per process:
    /// `cpuid` can cost a microsecond under a hypervisor).
    pub(super) fn detect() -> Isa {
        static DETECTED: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *DETECTED.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                use std::arch::is_x86_feature_detected as has;
                if has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt") {
                    return Isa(if fast_pext() { BMI_PEXT } else { BMI });
                }
            }
            Isa(BASELINE)
        })
    }

    /// The baseline level, which every processor runs.
    #[cfg(test)]
    pub(super) fn baseline() -> Isa {
        Isa(BASELINE)
    }

    /// Level `level`, unchecked: for tests, which run a copy only after
    /// checking [`runs`].
    #[cfg(test)]
    pub(super) fn unchecked(level: u8) -> Isa {
        Isa(level)
    }

    /// The level: [`BASELINE`], [`BMI`] or [`BMI_PEXT`].
    pub(super) fn level(self) -> u8 {
        self.0
    }

    /// The level's short name, as `xlsudoku --version` prints it.
    pub(super) fn name(self) -> &'static str {
        match self.0 {
            BMI_PEXT => "bmi2+pext",
            BMI => "bmi2",
            _ => "baseline",
        }
    }
}

/// The name of the instruction set the search runs on this processor
/// (see [`Isa`]): `baseline`, `bmi2` or `bmi2+pext`.
pub(in crate::search) fn isa_name() -> &'static str {
    Isa::detect().name()
}

/// Whether the processor runs the copy for `isa` (the extensions and,
/// for [`BMI_PEXT`], `pext`/`pdep` at all; checked in debug builds).
#[cfg(target_arch = "x86_64")]
pub(super) fn runs(isa: u8) -> bool {
    use std::arch::is_x86_feature_detected as has;
    isa == BASELINE || (has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt"))
}

/// Whether `pext` runs in hardware: on Intel processors (every one with
/// BMI2) and AMD from family 19h (Zen 3); microcoded on earlier AMD and
/// Hygon processors, and unknown elsewhere.
#[cfg(target_arch = "x86_64")]
pub(super) fn fast_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 processor, leaves 0 and 1
    // always (recent Rust declares it safe, hence the `allow`).
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let name = [vendor.ebx, vendor.edx, vendor.ecx];
    let is = |text: &[u8; 12]| {
        let word = |i: usize| u32::from_le_bytes([text[i], text[i + 1], text[i + 2], text[i + 3]]);
        name == [word(0), word(4), word(8)]
    };
    let base_family = (signature >> 8) & 0xF;
    let family = if base_family == 0xF {
        base_family + ((signature >> 20) & 0xFF)
    } else {
        base_family
    };
    is(b"GenuineIntel") || (is(b"AuthenticAMD") && family >= 0x19)
}
