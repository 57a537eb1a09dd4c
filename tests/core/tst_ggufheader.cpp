// GGUF headers as they come: the real tiny model of tests/llama, that file cut at every offset,
// and headers whose counts and lengths claim more than any file holds (issue 26).
#include "dockertest.h"
#include "ggufbytes.h"
#include "llamaserver.h"

#include <localmodels/ggufheader.h>

#include <QBuffer>
#include <QFile>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
using namespace Sandpiper::Test::GgufBytes;

namespace {

Result<GgufInfo> readBytes(const QByteArray &bytes)
{
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    return GgufHeader::read(buffer);
}

} // namespace

class TestGgufHeader : public QObject
{
    Q_OBJECT

    QByteArray m_model;
    qint64 m_headerEnd = 0;

private Q_SLOTS:
    void initTestCase()
    {
        SANDPIPER_REQUIRE_LLAMA();
        QFile file(LlamaServer::modelPath());
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.errorString()));
        m_model = file.readAll();
    }

    // The tiny model as make-model.py writes it (its parameters counted over its 27 tensors).
    void readsTheRealModel()
    {
        const auto info = GgufHeader::read(LlamaServer::modelPath());
        QVERIFY2(info.ok(), qPrintable(info.error()));
        QCOMPARE(info->version, 3u);
        QCOMPARE(info->architecture, QStringLiteral("qwen2"));
        QCOMPARE(info->name, QStringLiteral("tiny-random-qwen2-toolcall"));
        QCOMPARE(info->quantization, QStringLiteral("F32"));
        QCOMPARE(info->trainedContext, 32768);
        QCOMPARE(info->kvBytesPerToken, 512);
        QCOMPARE(info->parameterCount, 116672);
        QVERIFY(info->chatTemplate.startsWith(QLatin1String("{%")));
        QVERIFY(info->templateTakesTools);
        QCOMPARE(info->splitCount, 1);
        // The weights fill the file after the aligned header exactly.
        QCOMPARE(info->headerBytes % 32, 0);
        QCOMPARE(info->headerBytes + info->weightBytes, qint64(m_model.size()));
        m_headerEnd = info->headerBytes;
    }

    // A download that stopped anywhere: inside the header, every byte of it, and in the weights.
    void aFileCutAnywhereSaysSo()
    {
        QVERIFY(m_headerEnd > 0);
        for (qint64 cut = 0; cut < m_model.size(); cut += cut < m_headerEnd + 64 ? 1 : 4099) {
            const auto info = readBytes(m_model.left(cut));
            QVERIFY2(!info.ok(), qPrintable(QStringLiteral("a file cut at %1 was taken as whole").arg(cut)));
            if (cut < 4) {
                QVERIFY2(info.error().contains(QLatin1String("not a GGUF")), qPrintable(info.error()));
                continue;
            }
            QVERIFY2(info.error().contains(QLatin1String("cut short")), qPrintable(info.error()));
            if (cut >= m_headerEnd)
                QVERIFY2(info.error().contains(QLatin1String("its weights need")), qPrintable(info.error()));
        }
    }

    void badHeadersGetASentence_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not a GGUF model file");
        QTest::newRow("a text file") << QByteArray("hello, this is not a model\n")
                                     << QStringLiteral("not a GGUF model file");
        QTest::newRow("a safetensors file")
            << (little<quint64>(64) + QByteArray("{\"__metadata__\":{}}")) << QStringLiteral("not a GGUF model file");
        QTest::newRow("version 1") << (QByteArray("GGUF") + little<quint32>(1) + QByteArray(16, '\0'))
                                   << QStringLiteral("version 1; llama.cpp reads versions 2 and 3");
        QTest::newRow("big-endian") << (QByteArray("GGUF") + little<quint32>(0x03000000) + QByteArray(16, '\0'))
                                    << QStringLiteral("version 50331648");
        QTest::newRow("absurd value count") << header(0, std::numeric_limits<quint64>::max(), {})
                                            << QStringLiteral("claims 18446744073709551615 metadata values");
        QTest::newRow("absurd tensor count")
            << header(quint64(1) << 60, 0, {}) << QStringLiteral("claims 1152921504606846976 tensors");
        QTest::newRow("absurd key length") << header(0, 1, little<quint64>(quint64(1) << 62) + QByteArray(20, 'k'))
                                           << QStringLiteral("a key is 4611686018427387904 bytes long");
        QTest::newRow("absurd text length")
            << header(0, 1, string("general.name") + little<quint32>(8) + little<quint64>(1u << 30) + "x")
            << QStringLiteral("the value of general.name is 1073741824 bytes long");
        QTest::newRow("absurd array count")
            << header(0, 1,
                      string("tokenizer.ggml.tokens") + little<quint32>(9) + little<quint32>(8) +
                          little<quint64>(quint64(1) << 40) + QByteArray(64, '\0'))
            << QStringLiteral("claims 1099511627776 entries in tokenizer.ggml.tokens");
        QTest::newRow("unknown value type") << header(0, 1, string("x") + little<quint32>(77) + QByteArray(16, '\0'))
                                            << QStringLiteral("x has a value of an unknown type (77)");
        QTest::newRow("arrays nested deep")
            << header(0, 1,
                      string("deep") + little<quint32>(9) + little<quint32>(9) + little<quint64>(1) +
                          little<quint32>(9) + little<quint64>(1) + little<quint32>(9) + little<quint64>(1) +
                          QByteArray(64, '\0'))
            << QStringLiteral("deep nests arrays deeper than 2");
        QTest::newRow("too many dimensions")
            << header(1, 0, {}, string("t") + little<quint32>(9) + QByteArray(100, '\1'))
            << QStringLiteral("tensor 0 has 9 dimensions (at most 4)");
        QTest::newRow("elements beyond counting")
            << header(1, 0, {},
                      string("t") + little<quint32>(2) + little<quint64>(quint64(1) << 40) +
                          little<quint64>(quint64(1) << 40) + little<quint32>(0) + little<quint64>(0))
            << QStringLiteral("tensor 0 has more elements than can be counted");
        QTest::newRow("weights far beyond the file")
            << header(1, 1, stringValue("general.architecture", "llama"),
                      string("t") + little<quint32>(1) + little<quint64>(1000000) + little<quint32>(0) +
                          little<quint64>(0))
            << QStringLiteral("its weights need 4000000 bytes after the header and 0 are there");
        QTest::newRow("alignment not a power of two")
            << header(0, 1, string("general.alignment") + little<quint32>(4) + little<quint32>(48))
            << QStringLiteral("alignment 48 is not a power of two");
    }

    void badHeadersGetASentence()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const auto info = readBytes(bytes);
        QVERIFY(!info.ok());
        QVERIFY2(info.error().contains(says), qPrintable(info.error()));
    }

    // A model split into files: each file says its place, and a guessed file type still names its
    // quantization.
    void splitFilesAndFileTypes()
    {
        const QByteArray values = stringValue("general.architecture", "llama") + string("split.count") +
                                  little<quint32>(2) + little<quint16>(3) + string("split.no") + little<quint32>(2) +
                                  little<quint16>(1) + string("general.file_type") + little<quint32>(4) +
                                  little<quint32>(15 | 1024) + string("llama.context_length") + little<quint32>(10) +
                                  little<quint64>(131072) + stringValue("tokenizer.chat_template", "{{ messages }}");
        const auto info = readBytes(header(0, 5, values));
        QVERIFY2(info.ok(), qPrintable(info.error()));
        QCOMPARE(info->splitCount, 3);
        QCOMPARE(info->splitIndex, 1);
        QCOMPARE(info->quantization, QStringLiteral("Q4_K_M"));
        QCOMPARE(info->trainedContext, 131072);
        QVERIFY(!info->templateTakesTools);
    }

    void aMissingFileIsSaid()
    {
        const auto info = GgufHeader::read(QStringLiteral("/nonexistent/model.gguf"));
        QVERIFY(!info.ok());
        QVERIFY2(info.error().startsWith(QLatin1String("Cannot open /nonexistent/model.gguf")),
                 qPrintable(info.error()));
    }
};

QTEST_GUILESS_MAIN(TestGgufHeader)
#include "tst_ggufheader.moc"
