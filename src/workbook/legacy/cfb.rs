//! A small, defensive reader of OLE compound files (the container of
//! `.xls`): the directory's names and one stream's bytes. Written here
//! rather than taken from a crate because every count and sector number
//! in a damaged file must be checked, never trusted: a chain that loops,
//! points outside the file or declares a huge size ends in an error.

/// A compound file's streams: names (with their storage kind) and starts.
pub(crate) struct Compound<'a> {
    bytes: &'a [u8],
    sector: usize,
    fat: Vec<u32>,
    minifat: Vec<u32>,
    ministream: Vec<u8>,
    cutoff: u64,
    /// Directory entries: name, kind (1 storage, 2 stream, 5 root), start
    /// sector, size.
    pub entries: Vec<(String, u8, u32, u64)>,
}

const END: u32 = 0xFFFF_FFFE;
const FREE: u32 = 0xFFFF_FFFF;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

impl<'a> Compound<'a> {
    /// Reads the header, the allocation tables and the directory.
    pub fn open(bytes: &'a [u8]) -> Result<Self, String> {
        let bad = |what: &str| format!("a damaged compound file ({what})");
        if bytes.len() < 512 {
            return Err(bad("shorter than its header"));
        }
        let shift = u16_at(bytes, 0x1E).unwrap_or(0);
        if shift != 9 && shift != 12 {
            return Err(bad("sector size"));
        }
        let sector = 1usize << shift;
        let mini_shift = u16_at(bytes, 0x20).unwrap_or(0);
        if mini_shift != 6 {
            return Err(bad("mini sector size"));
        }
        let n_sectors = (bytes.len().saturating_sub(sector)).div_ceil(sector);
        let mut c = Compound {
            bytes,
            sector,
            fat: Vec::new(),
            minifat: Vec::new(),
            ministream: Vec::new(),
            cutoff: u64::from(u32_at(bytes, 0x38).unwrap_or(4096)),
            entries: Vec::new(),
        };
        // The sectors of the FAT: 109 in the header, the rest in DIFAT sectors.
        let mut fat_sectors: Vec<u32> = (0..109)
            .filter_map(|i| u32_at(bytes, 0x4C + 4 * i))
            .filter(|&s| s < FREE - 3)
            .collect();
        let mut difat = u32_at(bytes, 0x44).unwrap_or(END);
        let mut hops = 0;
        while difat < FREE - 3 {
            hops += 1;
            if hops > n_sectors {
                return Err(bad("the DIFAT chain loops"));
            }
            let s = c
                .sector_bytes(difat)
                .ok_or_else(|| bad("a DIFAT sector is missing"))?;
            let per = sector / 4 - 1;
            fat_sectors.extend(
                (0..per)
                    .filter_map(|i| u32_at(s, 4 * i))
                    .filter(|&x| x < FREE - 3),
            );
            difat = u32_at(s, 4 * per).unwrap_or(END);
        }
        if fat_sectors.len() > n_sectors {
            return Err(bad("more FAT sectors than the file holds"));
        }
        for s in fat_sectors {
            let data = c
                .sector_bytes(s)
                .ok_or_else(|| bad("a FAT sector is missing"))?;
            c.fat.extend(
                data.chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
            );
        }
        let dir = c.chain(u32_at(bytes, 0x30).unwrap_or(END), usize::MAX)?;
        for e in dir.chunks_exact(128) {
            let len = usize::from(u16_at(e, 64).unwrap_or(0)).min(64);
            let units: Vec<u16> = e[..len.saturating_sub(2)]
                .chunks_exact(2)
                .map(|w| u16::from_le_bytes([w[0], w[1]]))
                .collect();
            let name = String::from_utf16_lossy(&units);
            let kind = e[66];
            let start = u32_at(e, 116).unwrap_or(END);
            let size = u64::from(u32_at(e, 120).unwrap_or(0));
            c.entries.push((name, kind, start, size));
        }
        let Some(&(_, 5, root_start, root_size)) = c.entries.first() else {
            return Err(bad("no root entry"));
        };
        if root_start < FREE - 3 {
            let mut ms = c.chain(root_start, root_size as usize)?;
            ms.truncate(root_size as usize);
            c.ministream = ms;
        }
        let mf = c.chain(u32_at(bytes, 0x3C).unwrap_or(END), usize::MAX)?;
        c.minifat = mf
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        Ok(c)
    }

    fn sector_bytes(&self, n: u32) -> Option<&'a [u8]> {
        let start = (n as usize).checked_add(1)?.checked_mul(self.sector)?;
        let end = start.checked_add(self.sector)?;
        // The last sector of a file may be cut short.
        self.bytes
            .get(start..end.min(self.bytes.len()))
            .filter(|s| !s.is_empty())
    }

    /// The bytes of the chain starting at `start` (regular sectors), up to
    /// `limit` bytes.
    fn chain(&self, start: u32, limit: usize) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let mut at = start;
        let mut hops = 0usize;
        while at < FREE - 3 && out.len() < limit {
            hops += 1;
            if hops > self.fat.len() + 1 {
                return Err("a damaged compound file (a sector chain loops)".into());
            }
            let s = self
                .sector_bytes(at)
                .ok_or("a damaged compound file (a sector chain leaves the file)")?;
            out.extend_from_slice(s);
            at = *self
                .fat
                .get(at as usize)
                .ok_or("a damaged compound file (a sector outside the FAT)")?;
        }
        Ok(out)
    }

    /// The bytes of the stream named `name` (case-insensitive), if any.
    pub fn stream(&self, name: &str) -> Result<Option<Vec<u8>>, String> {
        let Some(&(_, _, start, size)) = self
            .entries
            .iter()
            .find(|(n, kind, ..)| *kind == 2 && n.eq_ignore_ascii_case(name))
        else {
            return Ok(None);
        };
        let size = size as usize;
        if (size as u64) < self.cutoff {
            let mut out = Vec::with_capacity(size.min(self.ministream.len()));
            let mut at = start;
            let mut hops = 0usize;
            while at < FREE - 3 && out.len() < size {
                hops += 1;
                if hops > self.minifat.len() + 1 {
                    return Err("a damaged compound file (a mini chain loops)".into());
                }
                let from = (at as usize) * 64;
                let s = self
                    .ministream
                    .get(from..from + 64)
                    .ok_or("a damaged compound file (a mini sector outside the mini stream)")?;
                out.extend_from_slice(s);
                at = *self
                    .minifat
                    .get(at as usize)
                    .ok_or("a damaged compound file (a mini sector outside the mini FAT)")?;
            }
            out.truncate(size);
            return Ok(Some(out));
        }
        let mut out = self.chain(start, size)?;
        out.truncate(size);
        Ok(Some(out))
    }

    /// True when an entry (stream or storage) is named `name`.
    pub fn has(&self, name: &str) -> bool {
        self.entries
            .iter()
            .any(|(n, ..)| n.eq_ignore_ascii_case(name))
    }
}
