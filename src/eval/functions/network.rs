//! Built-in functions: the network family (Terraform's cidrhost cidrnetmask cidrsubnet
//! cidrsubnets), for IPv4 and IPv6, with Terraform's address parser (leading zeros allowed in
//! IPv4 octets) and go-cidr's arithmetic.

mod gocidr;
mod ipaddr;

use super::number::{go_big_int, go_int};
use super::{Function, FunctionError, FunctionTable, Param};
use crate::eval::types::Type;
use crate::eval::value::Value;
use ipaddr::{IpNet, ip_string, mask_size, to4};

fn parse(prefix: &str) -> Result<IpNet, String> {
    ipaddr::parse_cidr(prefix).map_err(|e| format!("invalid CIDR expression: {e}"))
}

fn prefix_arg(args: &[Value]) -> Result<&str, FunctionError> {
    super::args::string(args, 0)
}

fn num_arg(args: &[Value], i: usize) -> Result<&crate::eval::num::Num, FunctionError> {
    super::args::number(args, i)
}

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    let prefix = || Param::new("prefix", Type::String);
    let number = |name| Param::new(name, Type::Number);
    table.insert(Function::new(
        "cidrhost",
        vec![prefix(), number("hostnum")],
        None,
        Type::String,
        |args, _| {
            let host = go_big_int(num_arg(args, 1)?).map_err(FunctionError::other)?;
            let network = parse(prefix_arg(args)?).map_err(FunctionError::other)?;
            let ip = gocidr::host_big(&network, &host).map_err(FunctionError::other)?;
            Ok(Value::string_owned(ip_string(&ip)))
        },
    ));
    table.insert(Function::new(
        "cidrnetmask",
        vec![prefix()],
        None,
        Type::String,
        |args, _| {
            let text = prefix_arg(args)?;
            let network = parse(text).map_err(FunctionError::other)?;
            if to4(&network.ip).is_none() {
                return Err(FunctionError::other(format!(
                    "IPv6 addresses cannot have a netmask: {text}"
                )));
            }
            Ok(Value::string_owned(ip_string(&network.mask)))
        },
    ));
    table.insert(Function::new(
        "cidrsubnet",
        vec![prefix(), number("newbits"), number("netnum")],
        None,
        Type::String,
        |args, _| {
            let new_bits = go_int(num_arg(args, 1)?).map_err(FunctionError::other)?;
            let net_num = num_arg(args, 2)?;
            // A whole number below 2^63 goes in as a word; any other as `*big.Int` does
            // (or as the error converting to one).
            let big;
            let num = match net_num.to_i64().and_then(|v| u64::try_from(v).ok()) {
                Some(word) => gocidr::NetNum::Word(word),
                None => {
                    big = go_big_int(net_num).map_err(FunctionError::other)?;
                    gocidr::NetNum::Big(&big)
                }
            };
            let network = parse(prefix_arg(args)?).map_err(FunctionError::other)?;
            let subnet =
                gocidr::subnet_big(&network, new_bits, num).map_err(FunctionError::other)?;
            Ok(Value::string_owned(subnet.go_string()))
        },
    ));
    table.insert(Function::new(
        "cidrsubnets",
        vec![prefix()],
        Some(number("newbits")),
        Type::list(Type::String),
        |args, _| cidr_subnets(args),
    ));
}

fn cidr_subnets(args: &[Value]) -> Result<Value, FunctionError> {
    let network = parse(prefix_arg(args)?).map_err(|e| FunctionError::arg(0, e))?;
    let (start_len, _) = mask_size(&network.mask);
    let list = |items| Value::List {
        elem: Type::String,
        items,
    };
    if args.len() == 1 {
        return Ok(list(Vec::new().into()));
    }
    let length_arg =
        |i: usize| num_arg(args, i).and_then(|n| go_int(n).map_err(|e| FunctionError::arg(i, e)));
    let first = length_arg(1)?.wrapping_add(start_len);
    let mut current = gocidr::previous_subnet(&network, first);
    let mut out = Vec::with_capacity(args.len() - 1);
    for i in 1..args.len() {
        let mut length = length_arg(i)?;
        if length < 1 {
            return Err(FunctionError::arg(
                i,
                "must extend prefix by at least one bit",
            ));
        }
        if length > 32 {
            return Err(FunctionError::arg(
                i,
                "may not extend prefix by more than 32 bits",
            ));
        }
        length += start_len;
        let addr_bits = network.ip.len() as i64 * 8;
        if length > addr_bits {
            let protocol = match addr_bits {
                32 => "IPv4",
                128 => "IPv6",
                _ => "IP",
            };
            return Err(FunctionError::arg(
                i,
                format!(
                    "would extend prefix to {length} bits, which is too long for an {protocol} address"
                ),
            ));
        }
        let (next, rollover) =
            gocidr::next_subnet(&current, length).map_err(FunctionError::other)?;
        if rollover || !network.contains(&next.ip) {
            return Err(FunctionError::arg(
                i,
                format!(
                    "not enough remaining address space for a subnet with a prefix of {length} bits after {current}"
                ),
            ));
        }
        current = next;
        out.push(Value::string_owned(current.go_string()));
    }
    Ok(list(out.into()))
}
