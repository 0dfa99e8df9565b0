//! The one CIDR type: an address block, read where mcsctl takes one (`--proxy-protocol-from`,
//! `proxyProtocolFrom` of mcsctl.json) and where the approver's rules compare an address with
//! a HostSubnet's egress CIDRs.

use std::net::IpAddr;

/// An address block, `10.0.0.0/24` or a single address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Parses `ADDR` or `ADDR/PREFIX`.
    pub fn parse(s: &str) -> Result<Cidr, String> {
        let (a, p) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let addr: IpAddr = a
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse()
            .map_err(|_| format!("{s:?} is not an IP address or CIDR block"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match p {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{s:?}: the prefix must be 0 to {max}"))?,
        };
        Ok(Cidr { addr, prefix })
    }

    /// Parses `ADDR/PREFIX` as Go's `net.ParseCIDR` does: the prefix is required and the
    /// address is bare (no brackets). For CIDRs the cluster wrote (a HostSubnet's egressCIDRs).
    pub fn parse_block(s: &str) -> Result<Cidr, String> {
        if !s.contains('/') || s.contains('[') {
            return Err(format!("{s:?} is not a CIDR block"));
        }
        Cidr::parse(s)
    }

    /// Whether `ip` is in the block (IPv4-mapped IPv6 addresses count as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(n) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(n) & mask == u128::from(a) & mask
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

impl serde::Serialize for Cidr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Cidr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cidr, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Cidr::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidrs() {
        let c = Cidr::parse("10.0.0.0/24").unwrap();
        assert!(c.contains("10.0.0.77".parse().unwrap()));
        assert!(!c.contains("10.0.1.1".parse().unwrap()));
        assert!(
            c.contains("::ffff:10.0.0.5".parse().unwrap()),
            "IPv4-mapped"
        );
        assert!(
            Cidr::parse("192.0.2.7")
                .unwrap()
                .contains("192.0.2.7".parse().unwrap())
        );
        let six = Cidr::parse("fd00:1::/64").unwrap();
        assert!(six.contains("fd00:1::99".parse().unwrap()));
        assert!(!six.contains("fd00:2::1".parse().unwrap()));
        assert!(
            Cidr::parse("0.0.0.0/0")
                .unwrap()
                .contains("8.8.8.8".parse().unwrap())
        );
        for bad in ["10.0.0.0/33", "lb.example.com", "10.0.0.0/x", "::/129"] {
            assert!(Cidr::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn blocks_as_go_reads_them() {
        let c = Cidr::parse_block("10.0.0.0/24").unwrap();
        assert!(c.contains("10.0.0.9".parse().unwrap()));
        for bad in ["10.0.0.9", "[fd00::]/64", "10.0.0.0/33", "x/8"] {
            assert!(Cidr::parse_block(bad).is_err(), "{bad}");
        }
    }
}
