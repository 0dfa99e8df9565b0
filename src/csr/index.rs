//! Lookups of a review's context by name, built once per context: a review of 20,000 CSRs
//! against 10,000 machines and nodes finds each CSR's node and machine in one step instead of
//! a scan (issue 33 measured 3.5 s of scans at that size).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{Context, Machine, Node};

/// The maps, made on first use from the context's `nodes` and `machines`.
///
/// Invariant: a context's `nodes` and `machines` do not change once a lookup was made (they
/// are filled before the review starts). A clone starts empty, since struct-update syntax
/// (`Context { machines, ..ctx.clone() }`) replaces fields of the clone.
#[derive(Debug, Default)]
pub struct Index(OnceLock<Maps>);

#[derive(Debug)]
struct Maps {
    /// A node's position in `nodes` by its name (the first of a name, as a scan finds it).
    nodes: HashMap<String, usize>,
    /// A machine's position in `machines` by an InternalDNS address, lower-case and without a
    /// trailing dot (the first machine that has it).
    dns: HashMap<String, usize>,
    /// A machine's position by the node it is linked to: its nodeRef, or an inventory host's
    /// own name (the first machine linked to it).
    linked: HashMap<String, usize>,
}

impl Clone for Index {
    fn clone(&self) -> Index {
        Index::default()
    }
}

fn dns_key(name: &str) -> String {
    name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase()
}

impl Index {
    fn maps(&self, ctx: &Context) -> &Maps {
        self.0.get_or_init(|| {
            let mut nodes = HashMap::with_capacity(ctx.nodes.len());
            for (i, n) in ctx.nodes.iter().enumerate() {
                nodes.entry(n.name.clone()).or_insert(i);
            }
            let mut dns = HashMap::with_capacity(ctx.machines.len());
            let mut linked = HashMap::with_capacity(ctx.machines.len());
            for (i, m) in ctx.machines.iter().enumerate() {
                for a in m.addresses.iter().filter(|a| a.kind == "InternalDNS") {
                    dns.entry(dns_key(&a.address)).or_insert(i);
                }
                if let Some(n) = &m.node_ref {
                    linked.entry(n.clone()).or_insert(i);
                }
                if m.inventory {
                    linked.entry(m.name.clone()).or_insert(i);
                }
            }
            Maps { nodes, dns, linked }
        })
    }
}

impl Context {
    /// The node named `name`.
    pub fn node(&self, name: &str) -> Option<&Node> {
        let i = *self.index.maps(self).nodes.get(name)?;
        self.nodes.get(i)
    }

    /// The machine (or inventory host) whose InternalDNS address is the node's name (ASCII
    /// case ignored, a trailing dot of the address too, as the approver compares them).
    pub fn machine_by_dns(&self, node: &str) -> Option<&Machine> {
        // A node name ending in a dot matches no address (the address's dot is dropped, the
        // name's is not).
        if node.ends_with('.') {
            return None;
        }
        let i = *self.index.maps(self).dns.get(&node.to_ascii_lowercase())?;
        self.machines.get(i)
    }

    /// The machine linked to node `node`: its nodeRef names it, or it is the inventory host
    /// of that name.
    pub fn linked_machine(&self, node: &str) -> Option<&Machine> {
        let i = *self.index.maps(self).linked.get(node)?;
        self.machines.get(i)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Address;
    use super::*;

    fn machine(name: &str, dns: &[&str]) -> Machine {
        Machine {
            name: name.into(),
            created: None,
            window_end: None,
            addresses: dns
                .iter()
                .map(|d| Address {
                    kind: "InternalDNS".into(),
                    address: d.to_string(),
                })
                .collect(),
            node_ref: None,
            inventory: false,
        }
    }

    #[test]
    fn finds_what_a_scan_finds() {
        let mut ctx = Context::at(time::OffsetDateTime::UNIX_EPOCH);
        ctx.machines = vec![
            machine("a", &["w1.example.com."]),
            machine("b", &["W1.example.com", "w2"]),
            machine("c", &["w2"]),
        ];
        let scan = |node: &str| {
            ctx.machines
                .iter()
                .find(|m| {
                    m.addresses.iter().any(|a| {
                        a.kind == "InternalDNS"
                            && a.address
                                .strip_suffix('.')
                                .unwrap_or(&a.address)
                                .eq_ignore_ascii_case(node)
                    })
                })
                .map(|m| m.name.clone())
        };
        for node in [
            "w1.example.com",
            "W1.EXAMPLE.COM",
            "w2",
            "w1.example.com.",
            "w3",
            "",
        ] {
            assert_eq!(
                ctx.machine_by_dns(node).map(|m| m.name.clone()),
                scan(node),
                "{node}"
            );
        }
        ctx.machines[0].node_ref = Some("n1".into());
        ctx.machines[2].inventory = true;
        ctx.machines.push(machine("n1", &[]));
        ctx.machines[3].inventory = true;
        ctx.machines.push(machine("c", &[]));
        ctx.machines[4].inventory = true;
        let fresh = ctx.clone();
        let linked = |node: &str| {
            fresh.machines.iter().position(|m| {
                m.node_ref.as_deref() == Some(node) || (m.inventory && m.name == node)
            })
        };
        for node in ["n1", "c", "a", "b", "zz"] {
            let found = fresh.linked_machine(node).map(|m| m as *const Machine);
            let scanned = linked(node).map(|i| &fresh.machines[i] as *const Machine);
            assert_eq!(found, scanned, "{node}");
        }
        // A clone that changes its machines looks them up afresh.
        let other = Context {
            machines: vec![machine("d", &["w2"])],
            ..ctx.clone()
        };
        assert_eq!(other.machine_by_dns("w2").unwrap().name, "d");
        assert_eq!(ctx.machine_by_dns("w2").unwrap().name, "b");
    }
}
