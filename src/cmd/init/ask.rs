//! What `init` will make: from the flags, or, on a terminal with the cluster name or base
//! domain missing, from an interview that asks for everything the flags left out and confirms
//! a summary before anything is written.

use anyhow::{Result, bail};

use super::InitArgs;
use crate::cli::values;

use crate::exit::usage;
use crate::names::{McsAddress, San};
use crate::pki::keys::KeyAlgorithm;
use crate::ui::Ui;

/// The default pools of an OpenShift cluster.
pub(super) const DEFAULT_POOLS: [&str; 2] = ["worker", "master"];

/// Everything `init` decides before generating anything.
#[derive(Debug, Clone)]
pub(super) struct Plan {
    pub cluster_name: String,
    pub base_domain: String,
    pub url: Option<McsAddress>,
    pub sans: Vec<San>,
    pub pools: Vec<String>,
    pub alg: KeyAlgorithm,
}

impl Plan {
    /// `api-int.<cluster>.<domain>`.
    fn api_int(&self) -> String {
        format!("api-int.{}.{}", self.cluster_name, self.base_domain)
    }
}

/// The plan: flags, else prompts (on a terminal), else a usage error naming every missing flag.
pub(super) fn plan(ui: &Ui, args: &InitArgs) -> Result<Plan> {
    let mut missing = Vec::new();
    if args.cluster_name.is_none() {
        missing.push("--cluster-name");
    }
    if args.base_domain.is_none() {
        missing.push("--base-domain");
    }
    let from_flags = |cluster_name: String, base_domain: String| Plan {
        cluster_name,
        base_domain,
        url: args.url.clone(),
        sans: args.sans.clone(),
        pools: dedup(if args.pools.is_empty() {
            DEFAULT_POOLS.iter().map(|p| p.to_string()).collect()
        } else {
            args.pools.clone()
        }),
        alg: args.key_algorithm.unwrap_or(KeyAlgorithm::EcdsaP256),
    };
    if missing.is_empty() {
        return Ok(from_flags(
            args.cluster_name.clone().unwrap_or_default(),
            args.base_domain.clone().unwrap_or_default(),
        ));
    }
    if !ui.interactive {
        return Err(usage(format!(
            "missing {} (not prompting: {})",
            missing.join(" and "),
            "stdin is not a terminal or --non-interactive was given"
        )));
    }
    let p = interview(args)?;
    eprintln!("\n{}", crate::escape::text(&summary(&p), false));
    let go = dialoguer::Confirm::new()
        .with_prompt("Write these assets?")
        .default(true)
        .interact()?;
    if !go {
        bail!("cancelled: nothing was written");
    }
    Ok(p)
}

/// Asks for every value the flags did not give.
fn interview(args: &InitArgs) -> Result<Plan> {
    let text = |prompt: &str, check: fn(&str) -> Result<String, String>| -> Result<String> {
        let answer = dialoguer::Input::<String>::new()
            .with_prompt(prompt)
            .validate_with(move |s: &String| check(s.trim()).map(|_| ()))
            .interact_text()?;
        check(answer.trim()).map_err(|e| usage(format!("{prompt}: {e}")))
    };
    let cluster_name = match &args.cluster_name {
        Some(c) => c.clone(),
        None => text("Cluster name", values::dns_label)?,
    };
    let base_domain = match &args.base_domain {
        Some(d) => d.clone(),
        None => text("Base domain", values::dns_name)?,
    };
    let api_int = format!("api-int.{cluster_name}.{base_domain}");
    let url = match &args.url {
        Some(u) => Some(u.clone()),
        None => ask_url(&api_int)?,
    };
    let sans = if args.sans.is_empty() {
        let answer = dialoguer::Input::<String>::new()
            .with_prompt("Extra names or addresses on the serving certificate (comma-separated; empty for none)")
            .allow_empty(true)
            .validate_with(|s: &String| list(s, values::san).map(|_| ()))
            .interact_text()?;
        list(&answer, values::san).map_err(usage)?
    } else {
        args.sans.clone()
    };
    let pools = if args.pools.is_empty() {
        ask_pools()?
    } else {
        dedup(args.pools.clone())
    };
    let alg = match args.key_algorithm {
        Some(a) => a,
        None => {
            let names: Vec<&str> = KeyAlgorithm::ALL.iter().map(|a| a.name()).collect();
            let i = dialoguer::Select::new()
                .with_prompt("Key algorithm (rsa-2048 is what openshift-install uses)")
                .items(&names)
                .default(0)
                .interact()?;
            KeyAlgorithm::ALL[i]
        }
    };
    Ok(Plan {
        cluster_name,
        base_domain,
        url,
        sans,
        pools,
        alg,
    })
}

/// Where machines reach the MCS; `None` for api-int.
fn ask_url(api_int: &str) -> Result<Option<McsAddress>> {
    let answer = dialoguer::Input::<String>::new()
        .with_prompt(format!(
            "Where machines reach the MCS (a load balancer; empty for {api_int}:22623)"
        ))
        .allow_empty(true)
        .validate_with(|s: &String| {
            if s.trim().is_empty() {
                Ok(())
            } else {
                McsAddress::parse(s.trim()).map(|_| ())
            }
        })
        .interact_text()?;
    let a = answer.trim();
    Ok(if a.is_empty() {
        None
    } else {
        Some(McsAddress::parse(a).map_err(usage)?)
    })
}

/// The pools, at least one.
fn ask_pools() -> Result<Vec<String>> {
    let answer = dialoguer::Input::<String>::new()
        .with_prompt("Pools with a pointer config (comma-separated)")
        .default(DEFAULT_POOLS.join(","))
        .validate_with(|s: &String| {
            list(s, values::dns_label).and_then(|v| {
                if v.is_empty() {
                    Err("name at least one pool".to_string())
                } else {
                    Ok(())
                }
            })
        })
        .interact_text()?;
    Ok(dedup(list(&answer, values::dns_label).map_err(usage)?))
}

/// A comma-separated answer, each item checked.
fn list<T>(s: &str, check: fn(&str) -> Result<T, String>) -> Result<Vec<T>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| check(x).map_err(|e| format!("{x}: {e}")))
        .collect()
}

fn dedup(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in v {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// What will be written, for the confirmation.
fn summary(p: &Plan) -> String {
    let mcs = p
        .url
        .as_ref()
        .map_or(format!("https://{}:22623", p.api_int()), |u| u.url.clone());
    let plain = |s: &San| match s {
        San::Dns(d) => d.clone(),
        San::Ip(ip) => ip.to_string(),
    };
    let mut names = vec![p.api_int()];
    if let Some(u) = &p.url {
        names.push(plain(&u.host));
    }
    names.extend(p.sans.iter().map(plain));
    names.dedup();
    format!(
        "cluster:         {}.{}\nMCS address:     {mcs} (each pool at {mcs}/config/<pool>)\nserving names:   {}\npools:           {}\nkey algorithm:   {}",
        p.cluster_name,
        p.base_domain,
        names.join(", "),
        p.pools.join(", "),
        p.alg.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_the_summary() {
        assert_eq!(
            list("worker, infra,,", values::dns_label).unwrap(),
            vec!["worker".to_string(), "infra".to_string()]
        );
        assert_eq!(
            list("worker,Bad_Name", values::dns_label).unwrap_err(),
            "Bad_Name: not a DNS label: use 1 to 63 lower-case letters, digits and '-', not at either end"
        );
        let p = Plan {
            cluster_name: "demo".into(),
            base_domain: "example.com".into(),
            url: Some(McsAddress::parse("lb.example.com").unwrap()),
            sans: vec![San::parse("192.0.2.10").unwrap()],
            pools: vec!["worker".into()],
            alg: KeyAlgorithm::Rsa2048,
        };
        assert_eq!(
            summary(&p),
            "cluster:         demo.example.com\nMCS address:     https://lb.example.com:22623 (each pool at https://lb.example.com:22623/config/<pool>)\nserving names:   api-int.demo.example.com, lb.example.com, 192.0.2.10\npools:           worker\nkey algorithm:   rsa-2048"
        );
    }
}
