#include "tools/addresspolicy.h"

#include <QHostAddress>

#include <optional>

namespace Sandpiper {

namespace {

bool in(const QHostAddress &address, const char *subnet)
{
    return address.isInSubnet(QHostAddress::parseSubnet(QLatin1String(subnet)));
}

AddressPolicy::Kind kindOfIPv4(const QHostAddress &address)
{
    using Kind = AddressPolicy::Kind;
    // The metadata address lies inside link-local; it is named apart because it is the
    // classic target of forged requests in clouds.
    if (address == QHostAddress(QStringLiteral("169.254.169.254")))
        return Kind::CloudMetadata;
    if (in(address, "0.0.0.0/8"))
        return Kind::Unspecified;
    if (in(address, "127.0.0.0/8"))
        return Kind::Loopback;
    if (in(address, "10.0.0.0/8") || in(address, "172.16.0.0/12") || in(address, "192.168.0.0/16"))
        return Kind::Private;
    if (in(address, "169.254.0.0/16"))
        return Kind::LinkLocal;
    if (in(address, "100.64.0.0/10"))
        return Kind::SharedNat;
    if (in(address, "224.0.0.0/4"))
        return Kind::Multicast;
    if (in(address, "240.0.0.0/4") || in(address, "192.0.0.0/24") || in(address, "192.0.2.0/24") ||
        in(address, "198.18.0.0/15") || in(address, "198.51.100.0/24") || in(address, "203.0.113.0/24"))
        return Kind::Reserved;
    return Kind::Public;
}

// The IPv4 address inside an IPv6 address that tunnels or translates one.
std::optional<QHostAddress> embeddedIPv4(const QHostAddress &address)
{
    const Q_IPV6ADDR bytes = address.toIPv6Address();
    const auto fromBytes = [&bytes](int offset) {
        return QHostAddress(quint32(bytes[offset]) << 24 | quint32(bytes[offset + 1]) << 16 |
                            quint32(bytes[offset + 2]) << 8 | quint32(bytes[offset + 3]));
    };
    if (in(address, "::ffff:0:0/96") || in(address, "64:ff9b::/96"))
        return fromBytes(12);
    if (in(address, "2002::/16"))
        return fromBytes(2);
    // Deprecated IPv4-compatible addresses (::a.b.c.d); :: and ::1 are IPv6's own.
    if (in(address, "::/96") && !in(address, "::/127"))
        return fromBytes(12);
    return std::nullopt;
}

} // namespace

AddressPolicy::AddressPolicy(bool allowLocal)
    : m_allowLocal(allowLocal)
{}

bool AddressPolicy::allows(const QHostAddress &address) const
{
    switch (kindOf(address)) {
    case Kind::Public:
        return true;
    case Kind::Loopback:
    case Kind::Private:
    case Kind::LinkLocal:
    case Kind::SharedNat:
        return m_allowLocal;
    case Kind::Unspecified:
    case Kind::CloudMetadata:
    case Kind::Multicast:
    case Kind::Reserved:
        // Never a web page: allowing local networks does not hand out cloud credentials.
        return false;
    }
    return false;
}

AddressPolicy::Kind AddressPolicy::kindOf(const QHostAddress &address)
{
    if (address.isNull())
        return Kind::Unspecified;
    if (address.protocol() == QAbstractSocket::IPv4Protocol)
        return kindOfIPv4(address);
    // A scope id (fe80::1%eth0) says nothing about the kind, but would defeat isInSubnet.
    QHostAddress plain = address;
    plain.setScopeId(QString());
    if (const auto ipv4 = embeddedIPv4(plain))
        return kindOfIPv4(*ipv4);
    if (plain == QHostAddress(QStringLiteral("fd00:ec2::254")))
        return Kind::CloudMetadata;
    if (plain == QHostAddress(QHostAddress::AnyIPv6))
        return Kind::Unspecified;
    if (plain == QHostAddress(QHostAddress::LocalHostIPv6))
        return Kind::Loopback;
    if (in(plain, "fc00::/7") || in(plain, "fec0::/10"))
        return Kind::Private;
    if (in(plain, "fe80::/10"))
        return Kind::LinkLocal;
    if (in(plain, "ff00::/8"))
        return Kind::Multicast;
    if (in(plain, "2001:db8::/32") || in(plain, "2001::/32") || in(plain, "100::/64"))
        return Kind::Reserved;
    return Kind::Public;
}

QString AddressPolicy::describe(Kind kind)
{
    switch (kind) {
    case Kind::Public:
        return QStringLiteral("a public address");
    case Kind::Unspecified:
        return QStringLiteral("an unspecified address");
    case Kind::Loopback:
        return QStringLiteral("a loopback address (this computer)");
    case Kind::Private:
        return QStringLiteral("a private network address");
    case Kind::LinkLocal:
        return QStringLiteral("a link-local address");
    case Kind::SharedNat:
        return QStringLiteral("a carrier-grade NAT address");
    case Kind::CloudMetadata:
        return QStringLiteral("a cloud metadata address");
    case Kind::Multicast:
        return QStringLiteral("a multicast address");
    case Kind::Reserved:
        return QStringLiteral("a reserved address");
    }
    return {};
}

} // namespace Sandpiper
