#include "localmodels/ggufheader.h"

#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QtEndian>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>

namespace Sandpiper {

namespace {

// GGUF's value types (gguf.h).
enum ValueType : quint32 {
    Uint8,
    Int8,
    Uint16,
    Int16,
    Uint32,
    Int32,
    Float32,
    Bool,
    String,
    Array,
    Uint64,
    Int64,
    Float64,
};

std::optional<int> scalarSize(quint32 type)
{
    switch (type) {
    case Uint8:
    case Int8:
    case Bool:
        return 1;
    case Uint16:
    case Int16:
        return 2;
    case Uint32:
    case Int32:
    case Float32:
        return 4;
    case Uint64:
    case Int64:
    case Float64:
        return 8;
    default:
        return std::nullopt;
    }
}

bool isInteger(quint32 type)
{
    return type != Float32 && type != Float64 && type != Bool && scalarSize(type).has_value();
}

// llama.cpp's general.file_type (enum llama_ftype), as its quantize tool names them.
QString fileTypeName(qint64 fileType)
{
    static const QHash<qint64, QString> names{
        {0, QStringLiteral("F32")},     {1, QStringLiteral("F16")},      {2, QStringLiteral("Q4_0")},
        {3, QStringLiteral("Q4_1")},    {7, QStringLiteral("Q8_0")},     {8, QStringLiteral("Q5_0")},
        {9, QStringLiteral("Q5_1")},    {10, QStringLiteral("Q2_K")},    {11, QStringLiteral("Q3_K_S")},
        {12, QStringLiteral("Q3_K_M")}, {13, QStringLiteral("Q3_K_L")},  {14, QStringLiteral("Q4_K_S")},
        {15, QStringLiteral("Q4_K_M")}, {16, QStringLiteral("Q5_K_S")},  {17, QStringLiteral("Q5_K_M")},
        {18, QStringLiteral("Q6_K")},   {19, QStringLiteral("IQ2_XXS")}, {20, QStringLiteral("IQ2_XS")},
        {21, QStringLiteral("Q2_K_S")}, {22, QStringLiteral("IQ3_XS")},  {23, QStringLiteral("IQ3_XXS")},
        {24, QStringLiteral("IQ1_S")},  {25, QStringLiteral("IQ4_NL")},  {26, QStringLiteral("IQ3_S")},
        {27, QStringLiteral("IQ3_M")},  {28, QStringLiteral("IQ2_S")},   {29, QStringLiteral("IQ2_M")},
        {30, QStringLiteral("IQ4_XS")}, {31, QStringLiteral("IQ1_M")},   {32, QStringLiteral("BF16")},
        {36, QStringLiteral("TQ1_0")},  {37, QStringLiteral("TQ2_0")},   {38, QStringLiteral("MXFP4_MOE")},
    };
    // Files made by llama.cpp's converter mark a guessed type with 1024.
    return names.value(fileType & ~qint64(1024), QStringLiteral("type %1").arg(fileType));
}

// How ggml packs a tensor type: elements per block and bytes per block (ggml.c's type traits).
struct Packing {
    int blockElements;
    int blockBytes;
};

std::optional<Packing> packing(quint32 tensorType)
{
    static const QHash<quint32, Packing> table{
        {0, {1, 4}},      {1, {1, 2}},      {2, {32, 18}},   {3, {32, 20}},    {6, {32, 22}},    {7, {32, 24}},
        {8, {32, 34}},    {9, {32, 36}},    {10, {256, 84}}, {11, {256, 110}}, {12, {256, 144}}, {13, {256, 176}},
        {14, {256, 210}}, {15, {256, 292}}, {16, {256, 66}}, {17, {256, 74}},  {18, {256, 98}},  {19, {256, 50}},
        {20, {32, 18}},   {21, {256, 110}}, {22, {256, 82}}, {23, {256, 136}}, {24, {1, 1}},     {25, {1, 2}},
        {26, {1, 4}},     {27, {1, 8}},     {28, {1, 8}},    {29, {256, 56}},  {30, {1, 2}},     {34, {256, 54}},
        {35, {256, 66}},  {39, {32, 17}},
    };
    const auto found = table.constFind(tensorType);
    return found == table.cend() ? std::nullopt : std::optional<Packing>(*found);
}

// The fewest bytes one entry of each list can take, so that a count can be checked against the
// bytes left before anything is read or allocated for it.
constexpr qint64 minKeyValueBytes = 8 + 4 + 1;       // an empty key, a type, a one-byte value
constexpr qint64 minTensorInfoBytes = 8 + 4 + 4 + 8; // an empty name, no dimensions, type, offset
constexpr qint64 maxKeyBytes = 64 * 1024;
constexpr qint64 maxKeptTextBytes = 4 * 1024 * 1024; // a chat template is some kilobytes
constexpr quint32 maxDimensions = 4;                 // GGML_MAX_DIMS
constexpr int maxArrayDepth = 2;

class Reader
{
public:
    explicit Reader(QIODevice &device)
        : m_device(device)
        , m_size(device.size())
    {}

    QString error() const { return m_error; }
    bool failed() const { return !m_error.isEmpty(); }
    qint64 position() const { return m_device.pos(); }
    qint64 remaining() const { return m_size - m_device.pos(); }

    template<typename T> T number()
    {
        std::array<uchar, sizeof(T)> bytes{};
        if (failed())
            return T{};
        if (m_device.read(reinterpret_cast<char *>(bytes.data()), qint64(bytes.size())) != qint64(bytes.size())) {
            cutShort();
            return T{};
        }
        return qFromLittleEndian<T>(bytes.data());
    }

    // A value of TYPE (a scalar) as an integer.
    qint64 integer(quint32 type)
    {
        switch (type) {
        case Uint8:
            return number<quint8>();
        case Int8:
            return number<qint8>();
        case Uint16:
            return number<quint16>();
        case Int16:
            return number<qint16>();
        case Uint32:
            return number<quint32>();
        case Int32:
            return number<qint32>();
        case Uint64:
            return qint64(std::min<quint64>(number<quint64>(), quint64(std::numeric_limits<qint64>::max())));
        default:
            return number<qint64>();
        }
    }

    void skip(qint64 bytes, const QString &what)
    {
        if (failed())
            return;
        if (bytes > remaining())
            return damaged(
                GgufHeader::tr("%1 needs %2 bytes and only %3 are left").arg(what).arg(bytes).arg(remaining()));
        if (!m_device.seek(m_device.pos() + bytes))
            cutShort();
    }

    // A GGUF string; kept when KEEP (up to LIMIT bytes), else passed over.
    QString text(bool keep, qint64 limit, const QString &what)
    {
        const quint64 length = number<quint64>();
        if (failed())
            return {};
        if (length > quint64(remaining())) {
            damaged(GgufHeader::tr("%1 is %2 bytes long and only %3 are left").arg(what).arg(length).arg(remaining()));
            return {};
        }
        if (!keep) {
            skip(qint64(length), what);
            return {};
        }
        if (qint64(length) > limit) {
            damaged(GgufHeader::tr("%1 is %2 bytes long, more than the %3 such a text can be")
                        .arg(what)
                        .arg(length)
                        .arg(limit));
            return {};
        }
        const QByteArray bytes = m_device.read(qint64(length));
        if (bytes.size() != qint64(length))
            cutShort();
        return QString::fromUtf8(bytes);
    }

    // COUNT entries of at least MINBYTES each must fit in what is left.
    bool countFits(quint64 count, qint64 minBytes, const QString &what)
    {
        if (failed())
            return false;
        if (count > quint64(remaining() / minBytes)) {
            damaged(GgufHeader::tr("it claims %1 %2, more than its remaining %3 bytes can hold")
                        .arg(count)
                        .arg(what)
                        .arg(remaining()));
            return false;
        }
        return true;
    }

    void damaged(const QString &detail)
    {
        if (!failed())
            m_error = GgufHeader::tr("The GGUF header is cut short or damaged: %1. This file cannot be run; download "
                                     "the model again, or remove the file.")
                          .arg(detail);
    }

    void cutShort()
    {
        if (!failed())
            m_error = GgufHeader::tr("The GGUF file is cut short: it ends at byte %1, inside its header. A download "
                                     "that stopped part way leaves such a file; download it again.")
                          .arg(m_size);
    }

private:
    QIODevice &m_device;
    qint64 m_size;
    QString m_error;
};

// Passes over a value of TYPE, keeping integers in INTEGERS and the texts of KEYS in TEXTS.
void readValue(Reader &reader, quint32 type, const QString &key, int depth, QHash<QString, qint64> &integers,
               QHash<QString, QString> &texts)
{
    if (type == String) {
        static const QStringList kept{QStringLiteral("general.architecture"), QStringLiteral("general.name"),
                                      QStringLiteral("general.size_label"), QStringLiteral("tokenizer.chat_template")};
        const bool keep = depth == 0 && kept.contains(key);
        const QString value = reader.text(keep, maxKeptTextBytes, GgufHeader::tr("the value of %1").arg(key));
        if (keep)
            texts.insert(key, value);
        return;
    }
    if (type == Array) {
        if (depth >= maxArrayDepth)
            return reader.damaged(GgufHeader::tr("%1 nests arrays deeper than %2").arg(key).arg(maxArrayDepth));
        const quint32 elementType = reader.number<quint32>();
        const quint64 count = reader.number<quint64>();
        if (reader.failed())
            return;
        if (const auto size = scalarSize(elementType)) {
            if (reader.countFits(count, *size, GgufHeader::tr("entries in %1").arg(key)))
                reader.skip(qint64(count) * *size, key);
            return;
        }
        if (elementType != String && elementType != Array)
            return reader.damaged(GgufHeader::tr("%1 holds values of an unknown type (%2)").arg(key).arg(elementType));
        if (!reader.countFits(count, 8, GgufHeader::tr("entries in %1").arg(key)))
            return;
        for (quint64 i = 0; i < count && !reader.failed(); ++i)
            readValue(reader, elementType, key, depth + 1, integers, texts);
        return;
    }
    const auto size = scalarSize(type);
    if (!size)
        return reader.damaged(GgufHeader::tr("%1 has a value of an unknown type (%2)").arg(key).arg(type));
    if (depth == 0 && isInteger(type)) {
        const qint64 value = reader.integer(type);
        if (!reader.failed())
            integers.insert(key, value);
        return;
    }
    reader.skip(*size, key);
}

qint64 alignedUp(qint64 offset, qint64 alignment)
{
    return (offset + alignment - 1) / alignment * alignment;
}

} // namespace

Result<GgufInfo> GgufHeader::read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("Cannot open %1: %2.").arg(path, file.errorString());
    return read(file);
}

Result<GgufInfo> GgufHeader::read(QIODevice &device)
{
    Reader reader(device);
    const qint64 start = reader.position();
    const QByteArray magic = device.read(4);
    if (magic != "GGUF")
        return tr("This is not a GGUF model file: it does not begin with \"GGUF\".");

    GgufInfo info;
    info.version = reader.number<quint32>();
    if (reader.failed())
        return reader.error();
    if (info.version != 2 && info.version != 3)
        return tr("This GGUF file is of version %1; llama.cpp reads versions 2 and 3.").arg(info.version);
    const quint64 tensorCount = reader.number<quint64>();
    const quint64 valueCount = reader.number<quint64>();
    if (!reader.countFits(valueCount, minKeyValueBytes, tr("metadata values")))
        return reader.error();

    QHash<QString, qint64> integers;
    QHash<QString, QString> texts;
    for (quint64 i = 0; i < valueCount && !reader.failed(); ++i) {
        const QString key = reader.text(true, maxKeyBytes, tr("a key"));
        const quint32 type = reader.number<quint32>();
        if (!reader.failed())
            readValue(reader, type, key, 0, integers, texts);
    }
    if (!reader.countFits(tensorCount, minTensorInfoBytes, tr("tensors")))
        return reader.error();

    // The tensors' list: their sizes, from which the weights' extent and the parameter count follow.
    qint64 weightsEnd = 0;
    for (quint64 i = 0; i < tensorCount && !reader.failed(); ++i) {
        const QString what = tr("tensor %1").arg(i);
        (void)reader.text(false, 0, what);
        const quint32 dimensions = reader.number<quint32>();
        if (!reader.failed() && dimensions > maxDimensions)
            reader.damaged(tr("%1 has %2 dimensions (at most %3)").arg(what).arg(dimensions).arg(maxDimensions));
        qint64 elements = 1;
        for (quint32 d = 0; d < dimensions && !reader.failed(); ++d) {
            const quint64 extent = reader.number<quint64>();
            if (extent > quint64(std::numeric_limits<qint64>::max()) ||
                __builtin_mul_overflow(elements, qint64(extent), &elements))
                reader.damaged(tr("%1 has more elements than can be counted").arg(what));
        }
        const quint32 tensorType = reader.number<quint32>();
        const quint64 offset = reader.number<quint64>();
        if (reader.failed())
            break;
        if (__builtin_add_overflow(info.parameterCount, elements, &info.parameterCount))
            reader.damaged(tr("its tensors have more elements than can be counted"));
        // A type this reader does not know is left to llama.cpp, which may know it.
        if (const auto pack = packing(tensorType)) {
            const qint64 bytes = elements / pack->blockElements * pack->blockBytes;
            if (offset > quint64(std::numeric_limits<qint64>::max() - bytes))
                reader.damaged(tr("%1 lies beyond any file").arg(what));
            else
                weightsEnd = std::max(weightsEnd, qint64(offset) + bytes);
        }
    }
    if (reader.failed())
        return reader.error();

    info.architecture = texts.value(QStringLiteral("general.architecture"));
    info.name = texts.value(QStringLiteral("general.name"));
    info.sizeLabel = texts.value(QStringLiteral("general.size_label"));
    info.chatTemplate = texts.value(QStringLiteral("tokenizer.chat_template"));
    static const QRegularExpression readsTools(QStringLiteral("\\btools\\b"));
    info.templateTakesTools = info.chatTemplate.contains(readsTools);
    if (const auto type = integers.constFind(QStringLiteral("general.file_type")); type != integers.cend())
        info.quantization = fileTypeName(*type);
    const auto architectureValue = [&](const char *key) {
        return std::max<qint64>(0, integers.value(info.architecture + QLatin1Char('.') + QLatin1String(key)));
    };
    info.trainedContext = architectureValue("context_length");
    const qint64 layers = architectureValue("block_count");
    const qint64 width = architectureValue("embedding_length");
    const qint64 heads = architectureValue("attention.head_count");
    const qint64 kvHeads = integers.contains(info.architecture + QStringLiteral(".attention.head_count_kv"))
                               ? architectureValue("attention.head_count_kv")
                               : heads;
    // Keys and values, two bytes each, for the KV heads' share of the width; bounded so that no
    // header can make it overflow.
    if (layers > 0 && width > 0 && heads > 0 && layers < (1 << 16) && width < (1 << 24) && kvHeads <= heads)
        info.kvBytesPerToken = 2 * 2 * layers * (width * kvHeads / heads);
    info.splitCount = int(std::clamp<qint64>(integers.value(QStringLiteral("split.count"), 1), 1, 1 << 16));
    info.splitIndex = int(std::clamp<qint64>(integers.value(QStringLiteral("split.no"), 0), 0, info.splitCount - 1));

    const qint64 alignment = integers.value(QStringLiteral("general.alignment"), 32);
    if (alignment <= 0 || alignment > (1 << 20) || (alignment & (alignment - 1)) != 0)
        return tr("The GGUF header is cut short or damaged: its alignment %1 is not a power of two. This file cannot "
                  "be run; download the model again, or remove the file.")
            .arg(alignment);
    info.headerBytes = alignedUp(reader.position() - start, alignment);
    info.weightBytes = weightsEnd;
    const qint64 there = device.size() - start - info.headerBytes;
    if (weightsEnd > 0 && weightsEnd > there)
        return tr("The GGUF file is cut short: its weights need %1 bytes after the header and %2 are there. A "
                  "download that stopped part way leaves such a file; download it again.")
            .arg(weightsEnd)
            .arg(std::max<qint64>(there, 0));
    return info;
}

QString GgufInfo::parameterLabel(qint64 count)
{
    if (count <= 0)
        return QStringLiteral("?");
    const struct {
        double scale;
        const char *unit;
    } units[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    for (const auto &unit : units) {
        if (count >= unit.scale) {
            const double value = double(count) / unit.scale;
            return QString::number(value, 'f', value < 10 ? 1 : 0) + QLatin1String(unit.unit);
        }
    }
    return QString::number(count);
}

} // namespace Sandpiper
