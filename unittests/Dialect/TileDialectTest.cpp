//===- TileDialectTest.cpp - C++ helpers and folds of the tile dialect ----===//
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln::tile;

namespace {
class TileDialectTest : public ::testing::Test {
protected:
  TileDialectTest() : builder(&ctx) {
    ctx.loadDialect<TileDialect, arith::ArithDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }
  MLIRContext ctx;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};
} // namespace

TEST_F(TileDialectTest, PointeeTypeKeepsShapeAndEncoding) {
  auto f16 = builder.getF16Type();
  auto layout = BlockedLayoutAttr::get(&ctx, {8}, {32}, {4}, {0});
  auto ptrs = RankedTensorType::get({1024}, PtrType::get(f16), layout);
  auto pointee = cast<RankedTensorType>(getPointeeType(ptrs));
  EXPECT_EQ(pointee.getShape(), ArrayRef<int64_t>{1024});
  EXPECT_EQ(pointee.getElementType(), f16);
  EXPECT_EQ(pointee.getEncoding(), layout);
  EXPECT_EQ(getPointeeType(PtrType::get(f16)), f16);

  auto mask = cast<RankedTensorType>(getI1TypeLike(ptrs));
  EXPECT_TRUE(mask.getElementType().isInteger(1));
  EXPECT_EQ(mask.getEncoding(), layout);
}

TEST_F(TileDialectTest, SplatOfConstantFoldsToDenseConstant) {
  Location loc = builder.getUnknownLoc();
  Value c = arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(2.5f));
  auto type = RankedTensorType::get({128}, builder.getF32Type());
  Value splat = builder.createOrFold<SplatOp>(loc, type, c);
  auto constant = splat.getDefiningOp<arith::ConstantOp>();
  ASSERT_TRUE(constant);
  auto dense = cast<SplatElementsAttr>(constant.getValue());
  EXPECT_EQ(dense.getSplatValue<APFloat>().convertToFloat(), 2.5f);
}

TEST_F(TileDialectTest, AddPtrOfZeroFoldsToPointer) {
  Location loc = builder.getUnknownLoc();
  Value zero = arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(0));
  Value one = arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(1));
  // A block argument stands in for a kernel's pointer parameter.
  Block *block = new Block();
  module->getBodyRegion().push_back(block);
  Value ptr = block->addArgument(PtrType::get(builder.getF32Type()), loc);
  builder.setInsertionPointToEnd(block);
  EXPECT_EQ(builder.createOrFold<AddPtrOp>(loc, ptr.getType(), ptr, zero), ptr);
  EXPECT_NE(builder.createOrFold<AddPtrOp>(loc, ptr.getType(), ptr, one), ptr);
  block->erase();
}

TEST_F(TileDialectTest, BlockedLayoutRejectsBadThreadCount) {
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto bad = BlockedLayoutAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(&ctx)); }, &ctx, {1}, {16}, {4}, {0});
  EXPECT_FALSE(bad);
  EXPECT_EQ(message, "threadsPerWarp must multiply to 32, got 16");
}

// Every template the check accepts must be one LLVM's inline-asm printer
// takes without aborting; these are the printer's edge cases, ends of the
// string included.
TEST(InlineAsmTemplate, AcceptsOnlyWhatTheAsmPrinterParses) {
  for (const char *good :
       {"", "$$", "mov $0, $1;", "${0}", "${1:r}", "$0$1", "${:uid}", "${:comment}",
        "${:private}", "$(a$|b$)", "x$$y$1"})
    EXPECT_FALSE(checkInlineAsmTemplate(good, 2)) << good;
  for (const char *bad : {"$", "${", "${0", "${0:", "${0:}", "${0:rr}", "${0:c}", "$x",
                          "${:", "${:uid", "${:}", "${:bogus}", "$2", "${12}", "$99999999999"})
    EXPECT_TRUE(checkInlineAsmTemplate(bad, 2)) << bad;
  EXPECT_EQ(*checkInlineAsmTemplate("mov ${1:}r", 2),
            "`${1:` at offset 4 of the assembly needs the modifier `r` (the only one NVPTX "
            "prints for a register)");
}
