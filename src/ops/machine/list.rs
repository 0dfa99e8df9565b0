//! The machine list `machine add --from FILE` reads: CSV lines `name,pool,addresses` (the
//! addresses separated by spaces or semicolons; a header line naming the columns is skipped;
//! `#` starts a comment), or YAML: a list of (or a mapping `machines:` holding a list of)
//! `{name, pool, addresses}`, read with the one YAML reader.

use std::net::IpAddr;

use anyhow::{Result, bail};
use serde_json::Value;

/// One listed machine: name, pool, addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The node name.
    pub name: String,
    /// The pool.
    pub pool: String,
    /// The expected addresses.
    pub addresses: Vec<IpAddr>,
}

/// Parses the list; `what` names it in errors (with the line or entry).
pub fn parse(text: &str, what: &str) -> Result<Vec<Listed>> {
    let yaml = what.ends_with(".yaml")
        || what.ends_with(".yml")
        || text.trim_start().starts_with('-')
        || text.trim_start().starts_with("machines:");
    let out = if yaml {
        from_yaml(text, what)?
    } else {
        from_csv(text, what)?
    };
    if out.is_empty() {
        bail!("{what} lists no machine");
    }
    for m in &out {
        if !crate::names::is_dns_name(&m.name) || !crate::names::is_dns_label(&m.pool) {
            bail!(
                "{what}: machine {:?} of pool {:?}: a name is a DNS name, a pool a DNS label",
                m.name,
                m.pool
            );
        }
    }
    Ok(out)
}

fn from_csv(text: &str, what: &str) -> Result<Vec<Listed>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split(',').map(str::trim).collect();
        if out.is_empty() && cols.first() == Some(&"name") {
            continue;
        }
        let (name, pool, addrs) = match cols.as_slice() {
            [n, p] => (n, p, ""),
            [n, p, a] => (n, p, *a),
            _ => bail!(
                "{what} line {}: expected name,pool,addresses (addresses separated by spaces or ';')",
                i + 1
            ),
        };
        let addresses = addrs
            .split([' ', ';'])
            .filter(|a| !a.is_empty())
            .map(|a| {
                a.parse().map_err(|_| {
                    anyhow::anyhow!("{what} line {}: {a:?} is not an IP address", i + 1)
                })
            })
            .collect::<Result<_>>()?;
        out.push(Listed {
            name: name.to_string(),
            pool: pool.to_string(),
            addresses,
        });
    }
    Ok(out)
}

fn from_yaml(text: &str, what: &str) -> Result<Vec<Listed>> {
    let doc = crate::kube::yaml::documents(text, what)?
        .into_iter()
        .next()
        .map(|d| d.value)
        .unwrap_or(Value::Null);
    let list = match &doc {
        Value::Array(a) => a,
        Value::Object(o) => match o.get("machines") {
            Some(Value::Array(a)) => a,
            _ => bail!("{what}: expected a list of machines, or machines: holding one"),
        },
        _ => bail!("{what}: expected a list of machines, or machines: holding one"),
    };
    list.iter()
        .enumerate()
        .map(|(i, m)| {
            let field = |k: &str| m[k].as_str().map(str::to_string);
            let (Some(name), Some(pool)) = (field("name"), field("pool")) else {
                bail!("{what}: machine {} needs a name and a pool", i + 1);
            };
            let addresses = m["addresses"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| {
                    a.as_str().and_then(|s| s.parse().ok()).ok_or_else(|| {
                        anyhow::anyhow!("{what}: machine {name}: {a} is not an IP address")
                    })
                })
                .collect::<Result<_>>()?;
            Ok(Listed {
                name,
                pool,
                addresses,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_yaml_give_the_same_machines() {
        let csv = "name,pool,addresses\n# rack 1\nw1.example.com,worker,10.0.0.5 10.0.1.5\nm1.example.com,master\n";
        let yaml = "machines:\n  - name: w1.example.com\n    pool: worker\n    addresses: [10.0.0.5, 10.0.1.5]\n  - {name: m1.example.com, pool: master}\n";
        let a = parse(csv, "hosts.csv").unwrap();
        assert_eq!(a, parse(yaml, "hosts.yaml").unwrap());
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].addresses.len(), 2);
        let e = parse("w1,worker,10.0.0.999\n", "h.csv")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "h.csv line 1: \"10.0.0.999\" is not an IP address");
        let e = parse("w_1,worker\n", "h.csv").unwrap_err().to_string();
        assert!(e.contains("a name is a DNS name"), "{e}");
    }
}
