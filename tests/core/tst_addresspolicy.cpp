// Which addresses the web tools may connect to.
#include <tools/addresspolicy.h>

#include <QHostAddress>
#include <QTest>

using namespace Sandpiper;
using Kind = AddressPolicy::Kind;

class TestAddressPolicy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classifies_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<bool>("allowedWhenLocalAllowed");

        QTest::newRow("public v4") << "93.184.216.34" << Kind::Public << true;
        QTest::newRow("public v4 dns") << "1.1.1.1" << Kind::Public << true;
        QTest::newRow("public v6") << "2606:4700:4700::1111" << Kind::Public << true;
        QTest::newRow("loopback") << "127.0.0.1" << Kind::Loopback << true;
        QTest::newRow("loopback range") << "127.255.10.1" << Kind::Loopback << true;
        QTest::newRow("loopback v6") << "::1" << Kind::Loopback << true;
        QTest::newRow("mapped loopback") << "::ffff:127.0.0.1" << Kind::Loopback << true;
        QTest::newRow("mapped loopback hex") << "::ffff:7f00:1" << Kind::Loopback << true;
        QTest::newRow("compatible loopback") << "::127.0.0.1" << Kind::Loopback << true;
        QTest::newRow("nat64 loopback") << "64:ff9b::7f00:1" << Kind::Loopback << true;
        QTest::newRow("6to4 private") << "2002:0a00:0001::1" << Kind::Private << true;
        QTest::newRow("6to4 public") << "2002:5db8:d822::1" << Kind::Public << true;
        QTest::newRow("10/8") << "10.0.0.1" << Kind::Private << true;
        QTest::newRow("10/8 end") << "10.255.255.254" << Kind::Private << true;
        QTest::newRow("172.16/12") << "172.16.0.1" << Kind::Private << true;
        QTest::newRow("172.31") << "172.31.255.255" << Kind::Private << true;
        QTest::newRow("172.32 is public") << "172.32.0.1" << Kind::Public << true;
        QTest::newRow("172.15 is public") << "172.15.255.255" << Kind::Public << true;
        QTest::newRow("192.168/16") << "192.168.1.1" << Kind::Private << true;
        QTest::newRow("mapped private") << "::ffff:192.168.0.10" << Kind::Private << true;
        QTest::newRow("unique local") << "fc00::1" << Kind::Private << true;
        QTest::newRow("unique local fd") << "fd12:3456:789a::1" << Kind::Private << true;
        QTest::newRow("site local") << "fec0::1" << Kind::Private << true;
        QTest::newRow("link-local") << "169.254.1.1" << Kind::LinkLocal << true;
        QTest::newRow("link-local v6") << "fe80::1" << Kind::LinkLocal << true;
        QTest::newRow("link-local v6 scoped") << "fe80::1%1" << Kind::LinkLocal << true;
        QTest::newRow("cgnat") << "100.64.0.1" << Kind::SharedNat << true;
        QTest::newRow("cgnat end") << "100.127.255.254" << Kind::SharedNat << true;
        QTest::newRow("100.128 is public") << "100.128.0.1" << Kind::Public << true;
        QTest::newRow("metadata") << "169.254.169.254" << Kind::CloudMetadata << false;
        QTest::newRow("mapped metadata") << "::ffff:169.254.169.254" << Kind::CloudMetadata << false;
        QTest::newRow("metadata v6") << "fd00:ec2::254" << Kind::CloudMetadata << false;
        QTest::newRow("unspecified") << "0.0.0.0" << Kind::Unspecified << false;
        QTest::newRow("this network") << "0.1.2.3" << Kind::Unspecified << false;
        QTest::newRow("unspecified v6") << "::" << Kind::Unspecified << false;
        QTest::newRow("multicast") << "224.0.0.1" << Kind::Multicast << false;
        QTest::newRow("multicast high") << "239.255.255.250" << Kind::Multicast << false;
        QTest::newRow("multicast v6") << "ff02::1" << Kind::Multicast << false;
        QTest::newRow("broadcast") << "255.255.255.255" << Kind::Reserved << false;
        QTest::newRow("class e") << "240.0.0.1" << Kind::Reserved << false;
        QTest::newRow("documentation") << "192.0.2.1" << Kind::Reserved << false;
        QTest::newRow("benchmarking") << "198.18.0.1" << Kind::Reserved << false;
        QTest::newRow("documentation v6") << "2001:db8::1" << Kind::Reserved << false;
        QTest::newRow("teredo") << "2001:0:4136:e378:8000:63bf:3fff:fdd2" << Kind::Reserved << false;
    }

    void classifies()
    {
        QFETCH(QString, address);
        QFETCH(Kind, kind);
        QFETCH(bool, allowedWhenLocalAllowed);
        const QHostAddress parsed(address);
        QVERIFY2(!parsed.isNull(), qPrintable(address));
        QCOMPARE(AddressPolicy::kindOf(parsed), kind);
        QCOMPARE(AddressPolicy().allows(parsed), kind == Kind::Public);
        QCOMPARE(AddressPolicy(true).allows(parsed), allowedWhenLocalAllowed);
    }

    void everyKindIsDescribed()
    {
        for (const Kind kind : {Kind::Unspecified, Kind::Loopback, Kind::Private, Kind::LinkLocal, Kind::SharedNat,
                                Kind::CloudMetadata, Kind::Multicast, Kind::Reserved})
            QVERIFY(AddressPolicy::describe(kind).startsWith(QLatin1Char('a')));
        QCOMPARE(AddressPolicy::describe(Kind::Loopback), QStringLiteral("a loopback address (this computer)"));
    }

    void aNullAddressIsNeverAllowed() { QVERIFY(!AddressPolicy(true).allows(QHostAddress())); }
};

QTEST_GUILESS_MAIN(TestAddressPolicy)
#include "tst_addresspolicy.moc"
