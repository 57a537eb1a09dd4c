#pragma once

#include "charts/chartspec.h"

#include <optional>

namespace Sandpiper {

// Reads what the model sent for create_chart: precise errors for what cannot be drawn (the
// path of the field, what fits there, what came), quiet repairs for what is sloppy but clear,
// limits kept, and a normalised ChartSpec. Used through ChartSpec::fromJson().
class ChartSpecValidator
{
public:
    explicit ChartSpecValidator(const ChartLimits &limits)
        : m_limits(limits)
    {}

    std::optional<ChartSpec> run(const QJsonValue &input);
    ChartSpecError error() const { return m_error; }

    // One x value as the model wrote it.
    struct XToken {
        enum class Kind { Number, Date, Label } kind = Kind::Label;
        double value = 0; // Number and Date
        QString text;     // as written, for labels
        QString path;
    };
    // A series before its x values are resolved.
    struct RawSeries {
        QString dataPath; // where the data came from, e.g. series[1].data
        QString name;
        QString color;
        bool pairs = false;
        QList<XToken> xs; // with pairs
        QList<double> ys;
        QList<QString> yPaths;
    };

private:
    bool fail(const QString &path, const QString &expected, const QString &given);
    bool fail(const QString &path, const QString &expected, const QJsonValue &given);
    bool readText(const QJsonObject &object, const QStringList &keys, QString &out);
    bool readNumber(const QJsonValue &value, const QString &path, double &out);
    bool readX(const QJsonValue &value, const QString &path, XToken &out);
    bool readColors(const QJsonObject &object);
    bool readSeriesList(const QJsonObject &object);
    bool readSeries(const QJsonObject &object, const QString &prefix);
    bool readData(const QJsonValue &data, RawSeries &series);
    void mergePieSlices();
    bool readCategories(const QJsonValue &value, const QString &path);
    bool readSharedX(const QJsonValue &value);
    bool resolveX();
    bool resolveCategories(const QList<XToken> &tokens, bool fromSharedX);
    bool checkPie();

    ChartLimits m_limits;
    ChartSpecError m_error;
    ChartSpec m_spec;
    QList<RawSeries> m_series;
    std::optional<QStringList> m_categories; // given as "categories"
    std::optional<QList<XToken>> m_sharedX;  // given as "x"
};

} // namespace Sandpiper
